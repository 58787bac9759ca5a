/**
 * A test-only entry point: the real Tillpoint (openTillpoint, buildHttpServer, the scheduler and the
 * webhook worker, as `tillpoint serve` composes them) with thin wrappers around three of its ports
 * — the database, the processor and the webhook sender — that kill this process with a real
 * SIGKILL at the step named by CRASH_AT. Product code never learns it is being tested.
 *
 * Steps (CRASH_AT):
 *   pay.after-intent       the payment is written `processing`; the processor has not been asked
 *   pay.after-answer       the processor authorized; the outcome is not written
 *   capture.after-intent   the capture is recorded in flight; the processor has not been asked
 *   capture.after-answer   the processor captured; the outcome is not written
 *   void.after-intent / void.after-answer, refund.after-intent / refund.after-answer: the same
 *   webhook.during-send    a delivery is leased and its request is in flight; nothing is recorded
 *   migration              inside the migration transaction, before its last migration is recorded
 *
 * Before a kill at a payment step the webhook worker and the scheduler are stopped (they wait for
 * what they are doing to be recorded), so that the one crash is the one step under test; the
 * webhook step is the crash of a delivery itself.
 *
 * Prints one JSON line on stdout once listening: { port, key? } (key only when it made the account).
 * For the tests it adds GET /__fault/state: the rows the invariants are checked on (PGlite files
 * cannot be opened by a second process while this one runs).
 */
import { fileURLToPath } from 'node:url';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient, SqlExecutor } from '../../src/persistence/sql-client';
import { readConfig } from '../../src/runtime/config';
import { openDatabase, openTillpoint } from '../../src/runtime/open-tillpoint';
import { periodicJobs, startScheduler, type Scheduler } from '../../src/runtime/scheduler';
import { startWebhookWorker, type WebhookWorker } from '../../src/runtime/webhook-worker';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';
import type { PaymentProcessor, ProcessorDirectory } from '../../src/domain/processors/ports';
import type { WebhookSender } from '../../src/domain/webhooks/ports';

export const crashSteps = [
  'pay.after-intent',
  'pay.after-answer',
  'capture.after-intent',
  'capture.after-answer',
  'void.after-intent',
  'void.after-answer',
  'refund.after-intent',
  'refund.after-answer',
  'webhook.during-send',
  'migration',
] as const;
export type CrashStep = (typeof crashSteps)[number];

const crashAt = (process.env.CRASH_AT ?? '') as CrashStep | '';
if (crashAt && !crashSteps.includes(crashAt)) throw new Error(`unknown CRASH_AT ${crashAt}`);
/** Poll and job intervals, short so that a restarted server reconciles and delivers within seconds. */
const jobEveryMs = Number(process.env.CRASH_JOB_EVERY_MS ?? 300);

let scheduler: Scheduler | null = null;
let webhooks: WebhookWorker | null = null;

/** The kill -9. At a payment step, the background workers are quiet first (see above). */
async function die(quietFirst: boolean): Promise<never> {
  if (quietFirst) await Promise.all([webhooks?.stop(), scheduler?.stop()]);
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined);
}

/** The database port: dies inside the migration transaction, as its last migration is recorded. */
function crashingDatabase(db: SqlClient): SqlClient {
  if (crashAt !== 'migration') return db;
  let migrationsRecorded = 0;
  const watch = (tx: SqlExecutor): SqlExecutor => ({
    async query(text, params) {
      if (/INSERT INTO schema_migrations/.test(text) && ++migrationsRecorded >= 3) await die(false);
      return tx.query(text, params);
    },
    exec: (script) => tx.exec(script),
  });
  return {
    ...db,
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    close: db.close.bind(db),
    transaction: (work) => db.transaction((tx) => work(watch(tx))),
  };
}

/** The processor port: dies before or after the call of the step's operation. */
function crashingProcessor(processor: PaymentProcessor): PaymentProcessor {
  const around = async <T>(operation: string, call: () => Promise<T>): Promise<T> => {
    if (crashAt === `${operation}.after-intent`) await die(true);
    const answer = await call();
    if (crashAt === `${operation}.after-answer`) await die(true);
    return answer;
  };
  return Object.assign(Object.create(processor) as PaymentProcessor, {
    authorize: (request: Parameters<PaymentProcessor['authorize']>[0]) => around('pay', () => processor.authorize(request)),
    capture: (request: Parameters<PaymentProcessor['capture']>[0]) => around('capture', () => processor.capture(request)),
    void: (request: Parameters<PaymentProcessor['void']>[0]) => around('void', () => processor.void(request)),
    refund: (request: Parameters<PaymentProcessor['refund']>[0]) => around('refund', () => processor.refund(request)),
  });
}

/**
 * The sender port: at webhook.during-send, the request of the first `checkout.session.expired`
 * event goes out and the process dies while it is in flight (the test's receiver holds it
 * unanswered), with the lease held and no attempt recorded.
 */
function crashingSender(sender: WebhookSender): WebhookSender {
  if (crashAt !== 'webhook.during-send') return sender;
  return {
    send(request) {
      const sending = sender.send(request);
      if ((JSON.parse(request.body) as { type: string }).type === 'checkout.session.expired') {
        setTimeout(() => void die(false), Number(process.env.CRASH_SEND_MS ?? 500));
      }
      return sending;
    },
  };
}

async function main() {
  const config = readConfig();
  const db = crashingDatabase(await openDatabase(config));
  const tillpoint = await openTillpoint({
    db,
    publicUrl: config.publicUrl,
    rateLimitPerSecond: config.rateLimitPerSecond,
    reconciliation: config.reconciliation,
  });
  const real = tillpoint.deps.processors;
  const processors: ProcessorDirectory = {
    forScope: async (scope) => crashingProcessor(await real.forScope(scope)),
  };
  const deps = { ...tillpoint.deps, processors };

  let key: string | undefined;
  if ((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0]!.n === 0) {
    key = (await createAccount(deps, { name: 'Crash Shop' })).testSecretKey;
  }

  const app = await buildHttpServer({
    deps,
    webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    logger: false,
    processorSettings: tillpoint.processorSettings,
  });
  app.get('/__fault/state', async () => {
    const all = async (sql: string) => (await db.query(sql)).rows;
    return {
      payments: await all(
        'SELECT id, status, amount, amount_captured, amount_refunded, processor_transaction_id, checkout_session_id FROM payments ORDER BY created_at',
      ),
      sessions: await all('SELECT id, status, payment_id FROM checkout_sessions'),
      refunds: await all('SELECT id, payment_id, status, amount FROM refunds'),
      inFlight: await all('SELECT payment_id, operation FROM payment_operations_in_flight'),
      processor: await all(
        `SELECT t.payment_id, t.status, t.amount_captured,
                coalesce((SELECT sum(r.amount) FROM test_processor_refunds r WHERE r.transaction_id = t.id), 0)::int AS amount_refunded,
                coalesce((SELECT jsonb_agg(r.refund_id) FROM test_processor_refunds r WHERE r.transaction_id = t.id), '[]'::jsonb) AS refund_ids
           FROM test_processor_transactions t`,
      ),
      events: await all(
        `SELECT e.id, e.type, d.status AS delivery FROM events e
           JOIN webhook_endpoints w ON w.account_id = e.account_id AND w.mode = e.mode AND w.created_at <= e.created_at
           LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.endpoint_id = w.id`,
      ),
      migrations: await all('SELECT version FROM schema_migrations ORDER BY version'),
    };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const jobs = periodicJobs.map((job) => ({ ...job, everyMs: jobEveryMs }));
  const log = { info: () => undefined, error: (details: object, message: string) => console.error(message, details) };
  scheduler = startScheduler(deps, log, jobs);
  webhooks = startWebhookWorker({ deps, sender: crashingSender(httpWebhookSender()), log, pollMs: jobEveryMs });

  const { port } = app.server.address() as { port: number };
  console.log(JSON.stringify({ port, ...(key ? { key } : {}) }));
  const stop = async () => {
    await Promise.all([scheduler?.stop(), webhooks?.stop()]);
    await app.close();
    await tillpoint.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();

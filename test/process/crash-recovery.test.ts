import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/persistence/migrations/index';
import { openPostgres } from '../../src/persistence/sql-client';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { CrashStep } from './crashing-server';
import { seededDataDir } from '../support/pglite-template';
import { crashingServerBundle } from '../support/cli-bundle';

/**
 * Crash recovery at every step, by a real `kill -9` of a real server process on PGlite files
 * (and on PostgreSQL on demand, below).
 *
 * One server process per step: it starts (so it migrates, and reconciles what the previous step's
 * crash left behind — the check of that step), is driven over real HTTP to its step, and dies there.
 * The `it` of each step therefore checks the invariants after the *previous* crash before causing
 * its own; the last `it` restarts once more without a crash and checks the last one. Reconciliation
 * runs with its lease set short by configuration (RECONCILE_AFTER_SECONDS=1), and with the default
 * ten-minute RECONCILE_NOT_FOUND_GRACE_SECONDS: every step is resolved by what the processor says
 * once the lease has run out — a payment or refund it never saw fails at once — never by waiting
 * for the grace period.
 *
 * The invariants, after every restart:
 * - no payment `processing`, no refund `pending`, no capture or void still in flight;
 * - the processor's truth (the test processor's ledger, in the same database) and Tillpoint's agree;
 * - every event has its webhook delivery, delivered;
 * - no event reached the receiver twice with a 200 answer.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A step is one server start (a few seconds on a quiet machine; far more on a shared, loaded one). */
const STEP_TIMEOUT = 180_000;

interface Server {
  child: ChildProcess;
  base: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

type Row = Record<string, any>;
interface State {
  payments: Row[];
  sessions: Row[];
  refunds: Row[];
  inFlight: Row[];
  processor: Row[];
  events: Row[];
  migrations: Row[];
}

/**
 * PGlite files always; PostgreSQL too with CRASH_ON_POSTGRES=1 (and TEST_DATABASE_URL): another
 * minute or so of server starts, so not in every CI run.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
const variants = [
  { name: 'PGlite files', postgres: false },
  ...(postgresUrl && process.env.CRASH_ON_POSTGRES === '1' ? [{ name: 'PostgreSQL', postgres: true }] : []),
];

describe.each(variants)('crash recovery at every step (kill -9, $name)', (variant) => {
  const dataDir = seededDataDir('tillpoint-crash-');
  const schema = `crash_${Math.random().toString(36).slice(2, 10)}`;
  const databaseUrl = variant.postgres
    ? `${postgresUrl}${postgresUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
    : '';
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  let key = '';
  let live: Server | null = null;
  /** What the previous step's crash left to check once the next server has reconciled it. */
  let previous: { step: string; check: (state: State) => void } | null = null;

  function start(crashAt?: CrashStep): Promise<Server> {
    const child = spawn(process.execPath, [crashingServerBundle], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        PUBLIC_URL: '',
        CRASH_AT: crashAt ?? '',
        RECONCILE_AFTER_SECONDS: '1',
        RECONCILE_NOT_FOUND_GRACE_SECONDS: '600',
        RATE_LIMIT_TEST_PER_SECOND: '10000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return new Promise((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', (line) => {
        const ready = JSON.parse(line) as { port: number; key?: string };
        if (ready.key) key = ready.key;
        resolve({ child, base: `http://127.0.0.1:${ready.port}`, exited });
      });
      void exited.then((how) => reject(Object.assign(new Error(`server exited before listening: ${JSON.stringify(how)}`), how)));
    });
  }

  const call = async (server: Server, method: string, url: string, body?: unknown, auth = true) => {
    const res = await fetch(`${server.base}${url}`, {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, any>;
    expect(res.status, `${method} ${url}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json;
  };

  const state = async (server: Server): Promise<State> => (await fetch(`${server.base}/__fault/state`)).json() as Promise<State>;

  /** A session of `amount` paid with the Visa test card; returns the payment id. */
  const pay = async (server: Server, amount: number, captureMethod: 'automatic' | 'manual'): Promise<string> => {
    const session = await call(server, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      capture_method: captureMethod,
      line_items: [{ name: 'Beans', unit_amount: amount, quantity: 1 }],
    });
    const { nonce } = await call(
      server,
      'POST',
      `/api/checkout/sessions/${session.id}/card-tokens`,
      {
        number: '4111 1111 1111 1111',
        exp_month: 12,
        exp_year: 2034,
        cvc: '123',
      },
      false,
    );
    await call(
      server,
      'POST',
      `/api/checkout/sessions/${session.id}/payments`,
      {
        payment_method_type: 'card',
        nonce,
        email: 'shopper@example.com',
      },
      false,
    );
    return (await call(server, 'GET', `/v1/checkout/sessions/${session.id}`)).payment;
  };

  /** A request the server will not live to answer. */
  const fatal = async (server: Server, send: () => Promise<unknown>) => {
    const answered = await send().then(
      () => true,
      () => false,
    );
    expect(answered, 'the server answered instead of dying at its step').toBe(false);
    expect((await server.exited).signal).toBe('SIGKILL');
    live = null;
  };

  /** Problems with the invariants, as readable lines (empty when they all hold). */
  function violations(s: State): string[] {
    const out: string[] = [];
    for (const p of s.payments) if (p.status === 'processing') out.push(`payment ${p.id} still processing`);
    for (const r of s.refunds) if (r.status === 'pending') out.push(`refund ${r.id} still pending`);
    for (const o of s.inFlight) out.push(`${o.operation} of ${o.payment_id} still in flight`);
    const ledger = new Map(s.processor.map((t) => [t.payment_id, t]));
    for (const p of s.payments) {
      const t = ledger.get(p.id);
      const expected: Record<string, (t: Row | undefined) => boolean> = {
        failed: (t) => !t || t.status === 'processor_declined',
        requires_capture: (t) => t?.status === 'authorized',
        canceled: (t) => t?.status === 'voided',
        succeeded: (t) =>
          ['submitted_for_settlement', 'settled'].includes(t?.status) &&
          Number(t!.amount_captured) === Number(p.amount_captured) &&
          Number(t!.amount_refunded) === Number(p.amount_refunded),
      };
      if (p.status !== 'processing' && !expected[p.status]?.(t)) {
        out.push(
          `payment ${p.id} is ${p.status} (captured ${p.amount_captured}, refunded ${p.amount_refunded}) but the processor has ${JSON.stringify(t ?? null)}`,
        );
      }
    }
    for (const t of s.processor) {
      if (!s.payments.some((p) => p.id === t.payment_id)) out.push(`processor transaction of unknown payment ${t.payment_id}`);
    }
    for (const r of s.refunds) {
      const made = (ledger.get(r.payment_id)?.refund_ids ?? []).includes(r.id);
      if (r.status === 'succeeded' && !made) out.push(`refund ${r.id} succeeded but the processor never made it`);
      if (r.status === 'failed' && made) out.push(`refund ${r.id} failed but the processor made it`);
    }
    for (const session of s.sessions) {
      if (session.status !== 'complete') continue;
      const p = s.payments.find((candidate) => candidate.id === session.payment_id);
      if (!p || p.status === 'failed' || p.status === 'processing') out.push(`session ${session.id} complete without a payment that won`);
    }
    for (const e of s.events) if (e.delivery !== 'delivered') out.push(`event ${e.id} (${e.type}) delivery ${e.delivery ?? 'missing'}`);
    const answered200 = new Map<string, number>();
    for (const r of receiver.received) if (r.answeredStatus === 200) answered200.set(r.event.id, (answered200.get(r.event.id) ?? 0) + 1);
    for (const [id, n] of answered200) if (n > 1) out.push(`event ${id} delivered ${n} times to a receiver that answered 200`);
    for (const e of s.events) if (e.delivery === 'delivered' && !answered200.has(e.id)) out.push(`event ${e.id} delivered but never answered 200`);
    return out;
  }

  /** Waits (bounded) for the restarted server to reconcile and deliver, then asserts the invariants. */
  async function expectRecovered(server: Server): Promise<State> {
    const deadline = Date.now() + 60_000;
    let current = await state(server);
    while (violations(current).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = await state(server);
    }
    expect(violations(current)).toEqual([]);
    if (previous) previous.check(current);
    previous = null;
    return current;
  }

  /** Starts the server of `step`, checks the recovery from the previous crash, drives it to its death. */
  async function crashStep(step: CrashStep, drive: (server: Server) => Promise<(state: State) => void>) {
    live = await start(step);
    await expectRecovered(live);
    const check = await drive(live);
    previous = { step, check };
  }

  beforeAll(async () => {
    receiverUrl = await receiver.start();
    if (variant.postgres) {
      const admin = await openPostgres(postgresUrl!, { max: 1 });
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.close();
    }
  });

  afterAll(async () => {
    if (live && live.child.exitCode === null && live.child.signalCode === null) {
      live.child.kill('SIGTERM');
      await live.exited;
    }
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (variant.postgres) {
      const admin = await openPostgres(postgresUrl!, { max: 1 });
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    }
  });

  it('migration: killed inside the migration transaction, the next start migrates from scratch', { timeout: STEP_TIMEOUT }, async () => {
    await expect(start('migration')).rejects.toMatchObject({ signal: 'SIGKILL' });
    live = await start('pay.after-intent');
    const s = await state(live);
    expect(s.migrations.map((m) => Number(m.version))).toEqual(migrations.map((m) => m.version));
    expect(key).toMatch(/^sk_test_/);
    const endpoint = await call(live, 'POST', '/v1/webhook_endpoints', { url: receiverUrl, enabled_events: ['*'] });
    receiver.secret = endpoint.secret;
  });

  it('pay.after-intent: a payment the processor never saw fails, and its session can be paid again', { timeout: STEP_TIMEOUT }, async () => {
    const server = live!;
    const session = await call(server, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1100, quantity: 1 }] });
    const { nonce } = await call(
      server,
      'POST',
      `/api/checkout/sessions/${session.id}/card-tokens`,
      { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
      false,
    );
    await fatal(server, () =>
      call(server, 'POST', `/api/checkout/sessions/${session.id}/payments`, { payment_method_type: 'card', nonce, email: 'a@example.com' }, false),
    );
    previous = {
      step: 'pay.after-intent',
      check: (s) => {
        const payment = s.payments.find((p) => p.checkout_session_id === session.id)!;
        expect(payment.status).toBe('failed');
        expect(s.sessions.find((x) => x.id === session.id)!.status).toBe('open');
      },
    };
  });

  it('pay.after-answer: an approved authorization whose outcome was lost is recorded as succeeded', { timeout: STEP_TIMEOUT }, async () => {
    let sessionId = '';
    await crashStep('pay.after-answer', async (server) => {
      const session = await call(server, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1200, quantity: 1 }] });
      sessionId = session.id;
      const { nonce } = await call(
        server,
        'POST',
        `/api/checkout/sessions/${session.id}/card-tokens`,
        { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
        false,
      );
      await fatal(server, () =>
        call(server, 'POST', `/api/checkout/sessions/${session.id}/payments`, { payment_method_type: 'card', nonce, email: 'b@example.com' }, false),
      );
      return (s) => {
        const payment = s.payments.find((p) => p.checkout_session_id === sessionId)!;
        expect(payment).toMatchObject({ status: 'succeeded' });
        expect(Number(payment.amount_captured)).toBe(1200);
        expect(s.sessions.find((x) => x.id === sessionId)).toMatchObject({ status: 'complete', payment_id: payment.id });
      };
    });
  });

  for (const [operation, verb] of [
    ['capture', 'capture'],
    ['void', 'cancel'],
  ] as const) {
    it(`${operation}.after-intent: a ${operation} the processor never saw leaves the authorization free`, { timeout: STEP_TIMEOUT }, async () => {
      await crashStep(`${operation}.after-intent`, async (server) => {
        const id = await pay(server, 1300, 'manual');
        await fatal(server, () => call(server, 'POST', `/v1/payments/${id}/${verb}`));
        return (s) => expect(s.payments.find((p) => p.id === id)).toMatchObject({ status: 'requires_capture' });
      });
    });

    it(`${operation}.after-answer: a ${operation} the processor made is recorded`, { timeout: STEP_TIMEOUT }, async () => {
      await crashStep(`${operation}.after-answer`, async (server) => {
        const id = await pay(server, 1400, 'manual');
        await fatal(server, () => call(server, 'POST', `/v1/payments/${id}/${verb}`, operation === 'capture' ? { amount: 1000 } : undefined));
        return (s) => {
          const payment = s.payments.find((p) => p.id === id)!;
          if (operation === 'capture') expect([payment.status, Number(payment.amount_captured)]).toEqual(['succeeded', 1000]);
          else expect(payment.status).toBe('canceled');
        };
      });
    });
  }

  it('refund.after-intent: a refund the processor never saw fails, releasing its amount', { timeout: STEP_TIMEOUT }, async () => {
    await crashStep('refund.after-intent', async (server) => {
      const id = await pay(server, 1500, 'automatic');
      await fatal(server, () => call(server, 'POST', '/v1/refunds', { payment: id, amount: 500 }));
      return (s) => {
        expect(s.refunds.filter((r) => r.payment_id === id).map((r) => r.status)).toEqual(['failed']);
        expect(Number(s.payments.find((p) => p.id === id)!.amount_refunded)).toBe(0);
      };
    });
  });

  it('refund.after-answer: a refund the processor made is recorded once', { timeout: STEP_TIMEOUT }, async () => {
    await crashStep('refund.after-answer', async (server) => {
      const id = await pay(server, 1600, 'automatic');
      await fatal(server, () => call(server, 'POST', '/v1/refunds', { payment: id, amount: 600 }));
      return (s) => {
        expect(s.refunds.filter((r) => r.payment_id === id).map((r) => r.status)).toEqual(['succeeded']);
        expect(Number(s.payments.find((p) => p.id === id)!.amount_refunded)).toBe(600);
      };
    });
  });

  it('webhook.during-send: a delivery killed in flight (lease held, nothing recorded) is delivered after the lease', { timeout: STEP_TIMEOUT }, async () => {
    await crashStep('webhook.during-send', async (server) => {
      receiver.hold = true;
      const seen = receiver.received.length;
      const session = await call(server, 'POST', '/v1/checkout/sessions', { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: 1700, quantity: 1 }] });
      await call(server, 'POST', `/v1/checkout/sessions/${session.id}/expire`);
      expect((await server.exited).signal).toBe('SIGKILL');
      live = null;
      const held = receiver.received.slice(seen);
      expect(held.map((r) => r.event.data.object.id)).toContain(session.id);
      receiver.hold = false;
      return (s) => {
        const expired = s.events.find((e) => e.id === held.find((r) => r.event.data.object.id === session.id)!.event.id)!;
        expect(expired.delivery).toBe('delivered');
      };
    });
  });

  it('after the last crash, a plain restart recovers too, and the server still takes payments', { timeout: STEP_TIMEOUT }, async () => {
    live = await start();
    await expectRecovered(live);
    const id = await pay(live, 1800, 'automatic');
    const s = await expectRecovered(live);
    expect(s.payments.find((p) => p.id === id)).toMatchObject({ status: 'succeeded' });
    // Every kind of object went through a crash and came out whole.
    expect(new Set(s.payments.map((p) => p.status))).toEqual(new Set(['failed', 'succeeded', 'requires_capture', 'canceled']));
  });
});

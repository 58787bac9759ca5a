import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { checkoutClientConfig } from '../http/checkout-client-config';
import { buildHttpServer } from '../http/server';
import type { SqlClient } from '../persistence/sql-client';
import { startServerReporting } from '../adapters/telemetry/server-reporting';
import { httpWebhookSender } from '../adapters/webhooks/http-sender';
import { startAdminSocket, type AdminCommandRequest, type AdminCommandResult, type AdminSocket } from './admin-socket';
import type { Config } from './config';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { ensureDemo, type DemoAnnouncement } from './demo';
import { createMetrics } from './metrics';
import { openDatabase, openReplicaDatabases, openTillpoint, type Tillpoint } from './open-tillpoint';
import { createReadiness, type Readiness } from './readiness';
import { checkoutPageCheckJob, periodicJobs, startScheduler } from './scheduler';
import { startWebhookWorker } from './webhook-worker';
import { WEBHOOK_TIMEOUT_MS } from '../domain/webhooks/rules';
import { batchedLogStream } from './log-stream';
import { httpDrain } from './http-drain';
import { recordServedUrl } from '../persistence/stores/install-settings';

/** Start-up could not go on; the message names the cause and the fix. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * The share of SHUTDOWN_TIMEOUT_SECONDS webhook sends under way may take to finish before they are
 * cut and given back (earlier, once the HTTP side has drained and the jobs have stopped): a
 * receiver that never answers cannot hold a shutdown.
 */
const WEBHOOK_SHARE_OF_SHUTDOWN = 0.4;
/**
 * From this share of SHUTDOWN_TIMEOUT_SECONDS on, requests that have not begun writing are refused
 * (503, nothing done, `Connection: close`); those that have begun go on to their answer.
 */
const REFUSE_SHARE_OF_SHUTDOWN = 0.5;
/** By this share the listener has closed; the rest is for the answers begun and closing the database. */
const LISTENER_SHARE_OF_SHUTDOWN = 0.8;

/** A step of the graceful shutdown, e.g. flushing a buffer; it runs once intake has stopped. */
export type ShutdownHook = () => Promise<void> | void;

export interface RunningServer {
  app: FastifyInstance;
  tillpoint: Tillpoint;
  readiness: Readiness;
  /** The address the server listens on. */
  address: string;
  demo: DemoAnnouncement;
  /**
   * Adds a close hook. Shutdown runs them in the order added, after the HTTP server, the periodic
   * jobs and the webhook worker have stopped, and before the database closes and DATA_DIR is released.
   */
  onShutdown(name: string, hook: ShutdownHook): void;
  /** Stops accepting, reports not ready at once, finishes the work under way, closes. Idempotent. */
  shutdown(): Promise<void>;
}

/** Hides the password of a database URL in messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * `tillpoint serve`: on the embedded database it first takes the DATA_DIR lock (one writer) and
 * opens the admin socket the CLI talks to; then database, HTTP server, periodic jobs, webhook worker.
 */
export async function startServer(
  config: Config,
  options: {
    webRoot: string;
    /** Runs a CLI command sent over the admin socket, with the server's database. */
    adminCommands?: (tillpoint: Tillpoint) => (request: AdminCommandRequest) => Promise<AdminCommandResult>;
  },
): Promise<RunningServer> {
  // What start-up has opened, undone last first: by a failed start-up, and by shutdown.
  const undo: Array<() => Promise<void> | void> = [];
  const unwind = async (onError: (error: unknown) => void = () => undefined) => {
    for (const step of undo.splice(0).reverse()) await Promise.resolve().then(step).catch(onError);
  };
  try {
    let lock: DataDirLock | null = null;
    let adminSocket: AdminSocket | null = null;
    let resolveRunner: (run: (request: AdminCommandRequest) => Promise<AdminCommandResult>) => void = () => undefined;
    if (!config.databaseUrl) {
      lock = await lockDataDir(config.dataDir, { role: 'serve', what: 'serve' });
      const held = lock;
      const releaseOnExit = () => held.release();
      process.once('exit', releaseOnExit);
      undo.push(() => {
        held.release();
        process.off('exit', releaseOnExit);
      });
      // Up before the (slow) database opens, so another process sees at once who holds DATA_DIR.
      const runner = new Promise<(request: AdminCommandRequest) => Promise<AdminCommandResult>>((resolve) => {
        resolveRunner = resolve;
      });
      adminSocket = await startAdminSocket({
        dataDir: config.dataDir,
        status: { pid: process.pid, nonce: held.holder.nonce, startedAt: held.holder.startedAt },
        run: async (request) => (await runner)(request),
      });
      const socket = adminSocket;
      undo.push(() => socket.close());
    }

    const reporter = await startServerReporting(config.sentry);
    let log: { warn(details: object, message: string): void } = { warn: (_details, message) => console.error(message) };
    let db: SqlClient;
    try {
      db = await openDatabase(config, {
        onIdleError: (err) => log.warn({ err }, 'a database connection broke; it is replaced on the next query'),
        onWarning: (message) => log.warn({}, message),
      });
    } catch (error) {
      const message = (error as Error).message;
      const direct = config.databaseDirectUrl && message.startsWith('DATABASE_DIRECT_URL: ');
      const [variable, url, cause] = direct
        ? ['DATABASE_DIRECT_URL', config.databaseDirectUrl!, message.slice('DATABASE_DIRECT_URL: '.length)]
        : ['DATABASE_URL', config.databaseUrl, message];
      throw new StartupError(
        url
          ? `cannot reach the PostgreSQL server named by ${variable} (${redactUrl(url)}): ${cause}. Check that it runs and that the URL, user and password are right.`
          : `cannot open the embedded database in DATA_DIR ${config.dataDir}: ${message}`,
      );
    }
    undo.push(() => db.close());
    const replicaDatabases = await openReplicaDatabases(config, {
      onIdleError: (err) => log.warn({ err }, 'a read replica connection broke; it is replaced on the next query'),
    });
    undo.push(async () => {
      await Promise.all(replicaDatabases.map((replica) => replica.close()));
    });
    let opened: Tillpoint | null = null;
    const metrics = createMetrics({ db, replicas: () => opened?.replicas?.status() ?? [] });
    const tillpoint = await openTillpoint({
      db,
      publicUrl: config.publicUrl,
      testSettlementDelaySeconds: config.testSettlementDelaySeconds,
      testLocalPaymentDelaySeconds: config.testLocalPaymentDelaySeconds,
      testAchSettleDelaySeconds: config.testAchSettleDelaySeconds,
      testProcessorLatencyMs: config.sandboxLatencyMs,
      rateLimitPerSecond: config.rateLimitPerSecond,
      secretKey: config.secretKey,
      flagsOfrepUrl: config.flagsOfrepUrl,
      observer: metrics.observer,
      reconciliation: config.reconciliation,
      onKeyFeedError: (err) => log.warn({ err }, 'the connection hearing of API key changes broke; keys are looked up again until it is back'),
      signUp: config.signUp,
      smtp: config.smtp,
      onMailError: (err) => log.warn({ err }, 'an email could not be sent (SMTP_URL)'),
      replicas: { databases: replicaDatabases, maxLagMs: config.databaseReplicaMaxLagMs },
    });
    opened = tillpoint;
    // Closing Tillpoint closes the database and the replicas.
    undo.pop();
    undo.pop();
    undo.push(() => tillpoint.close());
    if (options.adminCommands) resolveRunner(options.adminCommands(tillpoint));
    else resolveRunner(async () => ({ exitCode: 2, stdout: '', stderr: 'tillpoint: this server takes no commands\n' }));

    const demo = await ensureDemo(tillpoint.deps, db);
    // A CLI command run away from this server (DATABASE_URL) prints links with this address.
    await recordServedUrl(db, config.publicUrl);
    const readiness = createReadiness(db);
    // Requests reach the database through the drain, which can hold back and refuse the work not
    // yet begun when a shutdown runs short of time.
    const drain = httpDrain();
    const app = await buildHttpServer({
      deps: { ...tillpoint.deps, store: drain.store(tillpoint.deps.store) },
      webRoot: options.webRoot,
      logger: { level: config.logLevel, stream: batchedLogStream() },
      reporter,
      clientConfig: checkoutClientConfig(config),
      processorSettings: tillpoint.processorSettings,
      operations: { readiness, metrics, metricsToken: config.metricsToken },
      hsts: config.hsts,
      applePayDomainAssociation: readApplePayDomainAssociation(config.applePayDomainAssociationFile),
    });
    log = app.log;
    drain.attach(app);
    const closeApp = () => app.close();
    undo.push(closeApp);
    const address = await app.listen({ port: config.port, host: config.host }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
      throw new StartupError(
        error.code === 'EADDRINUSE'
          ? `cannot listen on ${config.host}:${config.port}: the port is in use (another Tillpoint?). Stop what holds it, or set PORT to a free port.`
          : `cannot listen on ${config.host}:${config.port}: not allowed for this user. Set PORT to 1024 or above.`,
      );
    });

    // Job failures go to the log and to error reporting.
    const jobLog = {
      info: (details: object, message: string) => app.log.info(details, message),
      error: (details: { err?: unknown; job?: string }, message: string) => {
        app.log.error(details, message);
        reporter.captureException(details.err ?? new Error(message), { tags: { job: details.job ?? 'background' } });
      },
    };
    // Session expiry, reconciliation, auto-void, purge of expired API records; and webhook delivery.
    const scheduler = startScheduler(tillpoint.deps, jobLog, [
      ...periodicJobs,
      checkoutPageCheckJob(app.checkoutPageIntegrity, config.checkoutPageCheckMinutes),
    ]);
    const webhooks = startWebhookWorker({ deps: tillpoint.deps, sender: httpWebhookSender(), log: jobLog });

    const hooks: Array<{ name: string; hook: ShutdownHook }> = [];
    let stopping: Promise<void> | null = null;
    const shutdown = async () => {
      const budgetMs = config.shutdownTimeoutSeconds * 1000;
      const began = performance.now();
      readiness.beginShutdown();
      app.log.info('shutting down: intake stopped, finishing requests under way and the webhook sends');
      // The listener stays open while requests are answered, taking what the kernel has queued, then
      // closes; every request received is answered — past half the budget, one that has not begun
      // writing with a 503 — each connection closing after its last answer. Periodic jobs finish
      // their run. Webhook sends under way may finish meanwhile; once both are done (or at the
      // webhook share of the budget) those still waiting are cut and given back, due at once for
      // the next instance.
      const httpDrained = drain.drain({
        refuseAfterMs: budgetMs * REFUSE_SHARE_OF_SHUTDOWN,
        closeByMs: budgetMs * LISTENER_SHARE_OF_SHUTDOWN,
      });
      const jobsStopped = scheduler.stop();
      await Promise.all([
        httpDrained,
        jobsStopped,
        webhooks.stop({
          handBackAfterMs: Math.min(WEBHOOK_TIMEOUT_MS, budgetMs * WEBHOOK_SHARE_OF_SHUTDOWN),
          handBackWhen: Promise.all([httpDrained, jobsStopped]),
        }),
      ]);
      // After the jobs (the page-integrity check fetches the page through the app); Fastify's close
      // hooks flush the API request log.
      await app.close();
      undo.splice(undo.indexOf(closeApp), 1);
      // Work started after an answer (a receipt, an outcome being recorded again) finishes while the
      // budget lasts; what is still running then is left to reconciliation and a resend.
      const backgroundLeftMs = Math.max(0, budgetMs - (performance.now() - began) - 1500);
      await Promise.race([tillpoint.deps.background.idle(), new Promise((resolve) => setTimeout(resolve, backgroundLeftMs).unref())]);
      for (const { name, hook } of hooks) {
        try {
          await hook();
        } catch (err) {
          app.log.error({ err, hook: name }, 'a shutdown hook failed');
        }
      }
      await reporter.flush(Math.max(0, Math.min(2000, budgetMs - (performance.now() - began) - 1000)));
      // The rest of start-up's undo list: the core and its database, the admin socket, DATA_DIR.
      await unwind((err) => app.log.error({ err }, 'a shutdown step failed'));
      app.log.info('stopped');
    };
    return {
      app,
      tillpoint,
      readiness,
      address,
      demo,
      onShutdown: (name, hook) => hooks.push({ name, hook }),
      shutdown: () => (stopping ??= shutdown()),
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/** The Apple Pay domain association file's content, read once at start; a path that cannot be read stops the start. */
function readApplePayDomainAssociation(file: string | null): string | null {
  if (file === null) return null;
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new StartupError(`cannot read APPLE_PAY_DOMAIN_ASSOCIATION ${file}: ${(error as Error).message}`);
  }
}

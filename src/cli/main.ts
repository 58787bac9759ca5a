import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { TillpointError } from '../domain/errors';
import { createAccount } from '../domain/use-cases/create-account';
import { checkoutClientConfig } from '../http/checkout-client-config';
import { buildHttpServer } from '../http/server';
import { migrate } from '../persistence/migrations/index';
import { ConfigError, readConfig, type Config } from '../runtime/config';
import { startWebhookWorker } from '../runtime/webhook-worker';
import { ensureDemo } from '../runtime/demo';
import { httpWebhookSender } from '../webhooks/http-sender';
import { registerProcessorCommands } from './processor-commands';
import { openDatabase, openTillpoint } from '../runtime/open-tillpoint';
import { startScheduler } from '../runtime/scheduler';
import { startServerReporting } from '../telemetry/server-reporting';

const webRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));

function loadConfig(): Config {
  try {
    return readConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`tillpoint: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

function where(config: Config): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
}

async function serve() {
  const config = loadConfig();
  const reporter = await startServerReporting(config.sentry);
  const db = await openDatabase(config);
  const tillpoint = await openTillpoint({
    db,
    publicUrl: config.publicUrl,
    testSettlementDelaySeconds: config.testSettlementDelaySeconds,
    rateLimitPerSecond: config.rateLimitPerSecond,
    secretKey: config.secretKey,
    flagsOfrepUrl: config.flagsOfrepUrl,
  });
  const demo = await ensureDemo(tillpoint.deps, db);
  const app = await buildHttpServer({
    deps: tillpoint.deps,
    webRoot,
    logger: { level: config.logLevel },
    isReady: async () => (await db.query('SELECT 1')).rowCount === 1,
    reporter,
    clientConfig: checkoutClientConfig(config),
    processorSettings: tillpoint.processorSettings,
  });
  await app.listen({ port: config.port, host: config.host });

  const lines = [`Tillpoint is running at ${config.publicUrl} (database: ${where(config)})`];
  if (demo.created) {
    lines.push(
      'Created a demo account on this first start:',
      `  account id:       ${demo.created.accountId}`,
      `  test secret key:  ${demo.created.testSecretKey}   (shown once; keep it)`,
    );
  }
  if (demo.checkoutUrl) {
    lines.push(`Demo checkout: ${demo.checkoutUrl}`, '  pay with 4111 1111 1111 1111, any future expiry, any CVC');
  }
  lines.push(`Dashboard: ${config.publicUrl}/dashboard (sign up to create your own account)`);
  console.log(`\n${lines.join('\n')}\n`);

  // Job failures go to the log and to error reporting.
  const jobLog = {
    info: (details: object, message: string) => app.log.info(details, message),
    error: (details: { err?: unknown; job?: string }, message: string) => {
      app.log.error(details, message);
      reporter.captureException(details.err ?? new Error(message), { tags: { job: details.job ?? 'background' } });
    },
  };
  // Session expiry, reconciliation, auto-void, purge of expired API records; and webhook delivery.
  const scheduler = startScheduler(tillpoint.deps, jobLog);
  const webhooks = startWebhookWorker({ deps: tillpoint.deps, sender: httpWebhookSender(), log: jobLog });

  const stop = async () => {
    await scheduler.stop();
    await webhooks.stop();
    await app.close();
    await reporter.flush(2000);
    await tillpoint.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const program = new Command('tillpoint')
  .description('Tillpoint: self-hosted checkout. Configuration comes from the environment (PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL, LOG_LEVEL, …): see the README.')
  .showHelpAfterError();

program.command('serve').description('run the HTTP server (creates a demo account on an empty database)').action(serve);

program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(async () => {
    const config = loadConfig();
    const db = await openDatabase(config);
    const applied = await migrate(db);
    await db.close();
    console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
  });

const account = program.command('account').description('manage merchant accounts');
account
  .command('create')
  .description("create a merchant account and print its id and a test secret key")
  .requiredOption('--name <name>', 'the business name')
  .option('--currency <code>', 'default currency', 'USD')
  .option('--json', 'print JSON instead of text')
  .action(async (options: { name: string; currency: string; json?: boolean }) => {
    const config = loadConfig();
    const tillpoint = await openTillpoint({ db: await openDatabase(config), publicUrl: config.publicUrl });
    try {
      const created = await createAccount(tillpoint.deps, { name: options.name, defaultCurrency: options.currency });
      if (options.json) {
        console.log(JSON.stringify({ id: created.account.id, name: created.account.name, test_secret_key: created.testSecretKey }));
      } else {
        console.log(`Account ${created.account.id} (${created.account.name})\nTest secret key: ${created.testSecretKey}  (shown once)`);
      }
    } catch (error) {
      if (error instanceof TillpointError) {
        console.error(`tillpoint: ${error.message}`);
        process.exitCode = 2;
      } else throw error;
    } finally {
      await tillpoint.close();
    }
  });

registerProcessorCommands(program, loadConfig);

await program.parseAsync(process.argv);

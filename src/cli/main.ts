import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { createAccount } from '../domain/team/use-cases/create-account';
import { migrate } from '../persistence/migrations/index';
import { AdminSocketError } from '../runtime/admin-socket';
import { listAccounts } from '../domain/team/use-cases/list-accounts';
import { ConfigError, packageVersion, readConfig, settings, type Config } from '../runtime/config';
import { DataDirError } from '../runtime/data-dir-lock';
import type { RunningServer } from '../runtime/serve';
import { databaseCommand, runDatabaseCommand, serverCommandRunner, type DatabaseCommand } from './database-command';
import { registerDeveloperCommands } from './developer-commands';
import { registerProcessorCommands } from './processor-commands';
import { registerAccessCommands } from './access-commands';

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

/** Problems of the environment (DATA_DIR, the database) end the command with their message and exit 1. */
function exitOnEnvironmentError(error: unknown): never {
  if (error instanceof DataDirError || error instanceof AdminSocketError || (error instanceof Error && error.name === 'StartupError')) {
    console.error(`tillpoint: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

/** Runs a database command in this process, or in the running server (src/cli/database-command.ts). */
const run = <O extends object>(command: DatabaseCommand<O>, options: O) => runDatabaseCommand(command, options, loadConfig()).catch(exitOnEnvironmentError);

function where(config: Config): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
}

async function serve() {
  const config = loadConfig();
  let server: RunningServer;
  try {
    // Loaded only for `serve`: the other commands start without the HTTP server's modules.
    const { startServer } = await import('../runtime/serve');
    server = await startServer(config, { webRoot, adminCommands: serverCommandRunner });
  } catch (error) {
    exitOnEnvironmentError(error);
  }
  const { demo } = server;
  const lines = [`Tillpoint is running at ${config.publicUrl} (database: ${where(config)})`];
  if (demo.created) {
    lines.push(
      'Created a demo account on this first start:',
      `  account id:       ${demo.created.accountId}`,
      `  test secret key:  ${demo.created.testSecretKey}   (shown once; keep it)`,
      `  setup link:       ${demo.created.setupUrl}`,
      "                    (opens the dashboard as this account's first owner; once, within 24 h; `tillpoint setup-link` makes another)",
    );
  }
  if (demo.checkoutUrl) {
    lines.push(`Demo checkout: ${demo.checkoutUrl}`, '  pay with 4111 1111 1111 1111, any future expiry, any CVC');
  }
  lines.push(
    config.signUp === 'open'
      ? `Dashboard: ${config.publicUrl}/dashboard (sign-up is open: SIGNUP=open)`
      : `Dashboard: ${config.publicUrl}/dashboard (new people join by invitation; \`tillpoint setup-link\` makes an owner's link)`,
  );
  console.log(`\n${lines.join('\n')}\n`);

  // SIGTERM / SIGINT: graceful, within SHUTDOWN_TIMEOUT_SECONDS; a second signal stops at once.
  let signalled = false;
  const stop = (signal: NodeJS.Signals) => {
    if (signalled) {
      console.error(`tillpoint: ${signal} again: stopping now`);
      process.exit(1);
    }
    signalled = true;
    const timer = setTimeout(() => {
      console.error(`tillpoint: did not stop within SHUTDOWN_TIMEOUT_SECONDS=${config.shutdownTimeoutSeconds}; exiting with work unfinished`);
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000);
    server.shutdown().then(
      () => {
        clearTimeout(timer);
        process.exit(0);
      },
      (error: unknown) => {
        console.error('tillpoint: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** `serve --help`'s list of settings, from the one table in src/runtime/config.ts. */
function settingsHelp(): string {
  const rows = settings();
  const width = Math.max(...rows.map((s) => s.name.length));
  const lines = rows.map((s) => `  ${s.name.padEnd(width)}  ${s.meaning.replaceAll('`', '')} (default: ${s.shownDefault === '—' ? 'none' : s.shownDefault})`);
  return `\nSettings (environment variables; a bad value stops start-up, naming it):\n${lines.join('\n')}`;
}

const program = new Command('tillpoint')
  .description('Tillpoint: self-hosted checkout. Configuration comes from the environment: `tillpoint serve --help` lists it.')
  .version(packageVersion(), '-v, --version', 'print the version')
  .showHelpAfterError();

program.command('serve').description('run the HTTP server (creates a demo account on an empty database)').addHelpText('after', settingsHelp).action(serve);

const migrateCommand = databaseCommand({
  name: 'migrate',
  async run({ db }, _options, io) {
    const applied = await migrate(db);
    io.out(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
  },
});
program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(() => run(migrateCommand, {}));

interface AccountCreateOptions {
  name: string;
  currency: string;
  json?: boolean;
}
const accountCreate = databaseCommand<AccountCreateOptions>({
  name: 'account create',
  async run(context, options, io) {
    const created = await createAccount((await context.open()).deps, { name: options.name, defaultCurrency: options.currency });
    if (options.json) {
      io.out(JSON.stringify({ id: created.account.id, name: created.account.name, test_secret_key: created.testSecretKey }));
    } else {
      io.out(`Account ${created.account.id} (${created.account.name})\nTest secret key: ${created.testSecretKey}  (shown once)`);
    }
  },
});
interface AccountListOptions {
  json?: boolean;
}
const accountList = databaseCommand<AccountListOptions>({
  name: 'account list',
  async run(context, options, io) {
    const accounts = await listAccounts((await context.open()).deps);
    if (options.json) {
      io.out(JSON.stringify(accounts.map((a) => ({ id: a.id, name: a.name, default_currency: a.defaultCurrency, created_at: a.createdAt.toISOString() }))));
    } else if (accounts.length === 0) {
      io.out('No accounts yet: tillpoint account create --name "My Shop"');
    } else {
      for (const a of accounts) io.out(`${a.id}  ${a.defaultCurrency}  ${a.createdAt.toISOString().slice(0, 10)}  ${a.name}`);
    }
  },
});
const account = program.command('account').description('manage merchant accounts');
account
  .command('create')
  .description('create a merchant account and print its id and a test secret key')
  .requiredOption('--name <name>', 'the business name')
  .option('--currency <code>', 'default currency', 'USD')
  .option('--json', 'print JSON instead of text')
  .action((options: AccountCreateOptions) => run(accountCreate, options));
account
  .command('list')
  .description('list the accounts of this install: id, default currency, creation date, name')
  .option('--json', 'print JSON instead of text')
  .action((options: AccountListOptions) => run(accountList, options));

registerProcessorCommands(program, run);
registerDeveloperCommands(program);
registerAccessCommands(program, run);

await program.parseAsync(process.argv);

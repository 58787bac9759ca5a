import { TillpointError } from '../domain/shared/errors';
import type { SqlClient } from '../persistence/sql-client';
import { adminSocketPath, sendAdminCommand, type AdminCommandRequest, type AdminCommandResult } from '../runtime/admin-socket';
import { publicUrlIsSet, type Config } from '../runtime/config';
import { servedUrl } from '../persistence/stores/install-settings';
import { DataDirError, lockDataDir } from '../runtime/data-dir-lock';
import type { Tillpoint } from '../runtime/open-tillpoint';

/**
 * A CLI command that reads or writes the database (`migrate`, `account create`, `processor …`).
 *
 * One writer on the embedded database: such a command runs in the process that holds DATA_DIR.
 * With no server up, the CLI takes the DATA_DIR lock and opens the database itself; with
 * `tillpoint serve` up, the CLI hands the command to the server over its admin socket, and the
 * server runs it on its own connection. On PostgreSQL (DATABASE_URL) there is no such limit and
 * the command runs where it is typed. Commands that only call the HTTP API need none of this.
 */
export interface DatabaseCommand<O extends object = Record<string, unknown>> {
  /** The words after `tillpoint`, e.g. `account create`: how the server finds the command. */
  name: string;
  /** Does the work; prints through `io` (never console), returns the exit code. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a command that falls off its end exits 0; one that fails returns its exit code.
  run(context: CommandContext, options: O, io: CommandIO): Promise<number | void>;
}

export interface CommandContext {
  db: SqlClient;
  /** The composition root over `db` (opened on first use by the CLI; the server's own in the server). */
  open(): Promise<Tillpoint>;
}

export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
}

const registry = new Map<string, DatabaseCommand<object>>();

/** Declares a database command; the server can run only declared ones. */
export function databaseCommand<O extends object>(command: DatabaseCommand<O>): DatabaseCommand<O> {
  registry.set(command.name, command);
  return command;
}

/** Runs a command, turning a `TillpointError` into a message (JSON with `--json`) and exit code 2. */
export async function executeCommand<O extends object>(command: DatabaseCommand<O>, context: CommandContext, options: O, io: CommandIO): Promise<number> {
  try {
    return (await command.run(context, options, io)) ?? 0;
  } catch (error) {
    if (!(error instanceof TillpointError)) throw error;
    if ((options as { json?: boolean }).json) io.out(JSON.stringify({ error: { code: error.code, message: error.message, param: error.param } }));
    else io.err(`tillpoint: ${error.message}`);
    return 2;
  }
}

/** The server side of the admin socket: runs a declared command with the server's database. */
export function serverCommandRunner(tillpoint: Tillpoint) {
  return async (request: AdminCommandRequest): Promise<AdminCommandResult> => {
    const command = registry.get(request.command);
    if (!command)
      return { exitCode: 2, stdout: '', stderr: `tillpoint: the server does not know the command "${request.command}" (is it an older version?)\n` };
    const stdout: string[] = [];
    const stderr: string[] = [];
    const exitCode = await executeCommand(command, { db: tillpoint.db, open: async () => tillpoint }, request.options, {
      out: (text) => void stdout.push(`${text}\n`),
      err: (text) => void stderr.push(`${text}\n`),
    });
    return { exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
  };
}

const consoleIO: CommandIO = { out: (text) => console.log(text), err: (text) => console.error(text) };

/** Runs a command from the command line, in this process or in the running server (see above). */
export async function runDatabaseCommand<O extends object>(command: DatabaseCommand<O>, options: O, config: Config): Promise<void> {
  if (config.databaseUrl) {
    process.exitCode = await runHere(command, options, config);
    return;
  }
  let lock: Awaited<ReturnType<typeof lockDataDir>>;
  try {
    // A CLI command holding the folder (a short run) is waited for; a server is used instead.
    lock = await lockDataDir(config.dataDir, { role: 'command', what: command.name }, { waitMs: 30_000 });
  } catch (error) {
    if (!(error instanceof DataDirError)) throw error;
    if (error.reason === 'locked' && error.holder?.role === 'serve') {
      const result = await sendAdminCommand(adminSocketPath(config.dataDir), {
        command: command.name,
        options: { ...options } as Record<string, unknown>,
      }).catch((cause: unknown) => {
        throw new DataDirError(
          'locked',
          `${error.message}\nIt did not take the command on its admin socket (${String(cause)}); stop it and run the command again.`,
        );
      });
      process.stdout.write(result.stdout);
      process.stderr.write(result.stderr);
      process.exitCode = result.exitCode;
      return;
    }
    throw error;
  }
  const release = () => lock.release();
  process.once('exit', release);
  try {
    process.exitCode = await runHere(command, options, config);
  } finally {
    release();
    process.off('exit', release);
  }
}

async function runHere<O extends object>(command: DatabaseCommand<O>, options: O, config: Config): Promise<number> {
  // Loaded only here: a command handed to the running server never pays for the database drivers.
  const { openDatabase, openTillpoint } = await import('../runtime/open-tillpoint');
  const db = await openDatabase(config, { forCommand: true });
  let tillpoint: Tillpoint | null = null;
  try {
    // Links the command prints (setup, password reset) name the address shoppers and members reach:
    // this shell's PUBLIC_URL or PORT when set, else the one the server noted when it started
    // (with DATABASE_URL the command runs here, away from the server and its settings).
    const publicUrl = publicUrlIsSet() ? config.publicUrl : ((await servedUrl(db).catch(() => null)) ?? config.publicUrl);
    return await executeCommand(
      command,
      {
        db,
        open: async () => (tillpoint ??= await openTillpoint({ db, publicUrl, secretKey: config.secretKey })),
      },
      options,
      consoleIO,
    );
  } finally {
    await ((tillpoint as Tillpoint | null)?.close() ?? db.close());
  }
}

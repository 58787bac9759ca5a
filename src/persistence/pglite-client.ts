import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** A statement's rows, typed by its caller (the thread sends back what PGlite's parsers made of them). */
type Result<R> = { rows: R[]; rowCount: number };

/**
 * The embedded database in a thread of its own (pglite-worker.mjs): PGlite's WebAssembly and its
 * protocol handling run on another core than the HTTP server, and a long statement no longer
 * stops the server from answering. Rows come back by structured clone, which keeps what PGlite's
 * parsers made of them (Date, number, bigint, parsed json, Uint8Array).
 */
export interface PgliteThread {
  /** A statement on its own, or inside transaction `tx` when given. */
  query<R = Record<string, unknown>>(text: string, params: unknown[], tx?: number): Promise<Result<R>>;
  /** A script of several statements, on its own or inside transaction `tx` when given. */
  exec(script: string, tx?: number): Promise<void>;
  /** Opens a transaction, named by a fresh number: PGlite runs nothing else until it ends. */
  begin(): Promise<number>;
  commit(tx: number): Promise<void>;
  rollback(tx: number): Promise<void>;
  /** Closes the database and ends the thread. */
  close(): Promise<void>;
}

const workerFile = new URL('./pglite-worker.mjs', import.meta.url);

/**
 * PGlite's two WebAssembly modules (PostgreSQL and initdb), compiled once per process and handed
 * to each thread: a fresh thread would otherwise compile 9 MB of WebAssembly again, which the test
 * suites, opening a database after another, would pay each time.
 */
let compiled: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }> | null = null;
function wasmModules() {
  compiled ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm'].map(async (file) => WebAssembly.compile(await readFile(path.join(dist, file)))),
    );
    return { pgliteWasmModule: pgliteWasmModule!, initdbWasmModule: initdbWasmModule! };
  })();
  return compiled;
}

type Described = { name?: string; message?: string; stack?: string } & Record<string, unknown>;

/** The worker's error rebuilt with the fields callers read: `code`, `constraint`, `detail`, `message`… */
function rebuilt(described: Described): Error {
  const { name, message, stack, ...fields } = described;
  const error = new Error(message ?? 'PGlite failed') as Error & Record<string, unknown>;
  if (name) error.name = name;
  Object.assign(error, fields);
  // Where the caller asked (this thread) and where it failed (the worker's).
  if (stack) error.stack = `${error.stack}\n    in the PGlite thread: ${stack}`;
  return error;
}

/** The thread's bounds on waiting (see pglite-worker.mjs): for its one connection, and idle in a transaction. */
export interface PgliteTimeouts {
  lockMs: number;
  idleInTransactionMs: number;
}

/** How a thread's database starts: from a dumped data directory, and with PostgreSQL's `shared_buffers` other than its default. */
export interface PgliteStart {
  startFrom?: string | null;
  sharedBuffers?: string;
}

export async function startPgliteThread(dataDir: string | null, timeouts: PgliteTimeouts, start: PgliteStart = {}): Promise<PgliteThread> {
  const worker = new Worker(workerFile, {
    workerData: {
      dataDir,
      startFrom: start.startFrom ?? null,
      sharedBuffers: start.sharedBuffers ?? null,
      timeouts: { lockMs: timeouts.lockMs, idleInTransactionMs: timeouts.idleInTransactionMs },
      ...(await wasmModules()),
    },
  });
  const pending = new Map<number, { resolve: (answer: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let nextTransaction = 1;
  let ended: Error | null = null;
  // The thread keeps the process alive only while an answer is awaited, like a socket with a query
  // in flight: an idle database does not stop a finished command from exiting.
  const settled = () => {
    if (pending.size === 0) worker.unref();
  };
  const failAll = (error: Error) => {
    ended ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  await new Promise<void>((ready, failed) => {
    const early = (error: Error) => failed(error);
    const onExit = (exitCode: number) => failed(new Error(`PGlite's thread ended before it was ready (exit code ${exitCode})`));
    worker.once('error', early);
    worker.once('exit', onExit);
    worker.once('message', (message: { ready: boolean; error?: Described }) => {
      worker.off('error', early);
      worker.off('exit', onExit);
      if (message.ready) ready();
      else {
        failed(rebuilt(message.error ?? {}));
        void worker.terminate();
      }
    });
  });

  worker.on('message', (message: { id: number; error?: Described }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    settled();
    if (message.error) waiting.reject(rebuilt(message.error));
    else waiting.resolve(message);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', () => failAll(new Error('PGlite is closed')));
  worker.unref();

  const request = <T>(message: Record<string, unknown>): Promise<T> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: (answer) => resolve(answer as T), reject });
      worker.postMessage({ id, ...message });
    });
  };

  let closing: Promise<void> | null = null;
  return {
    query: async <R>(text: string, params: unknown[], tx?: number) => {
      const { rows, rowCount } = await request<Result<R>>({ op: 'query', text, params, tx });
      return { rows, rowCount };
    },
    exec: async (script, tx) => {
      await request({ op: 'exec', script, tx });
    },
    begin: async () => {
      const tx = nextTransaction++;
      await request({ op: 'begin', tx });
      return tx;
    },
    commit: async (tx) => {
      await request({ op: 'commit', tx });
    },
    rollback: async (tx) => {
      await request({ op: 'rollback', tx });
    },
    close: () =>
      (closing ??= (async () => {
        try {
          if (!ended) await request({ op: 'close' });
        } finally {
          await worker.terminate();
        }
      })()),
  };
}

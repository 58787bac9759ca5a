// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, off
// the HTTP server's event loop, and answers the messages of pglite-client.ts. Plain JavaScript so
// that the worker needs no TypeScript loader, whichever way the main thread was started (tsx,
// vitest, a build). Only PGlite's public API is used (execProtocol, exec, the exported protocol
// serializer and result parser).
//
// Requests: { id, op, ... }; answers: { id, rows, rowCount } or { id, error }.
//   query  { text, params, tx? }   a statement, alone or inside transaction `tx`
//   exec   { script, tx? }         a script of several statements (migrations), alone or inside `tx`
//   begin  { tx }                  opens transaction `tx` and keeps the one connection until commit
//                                  or rollback: every other statement waits for it
//   commit { tx } / rollback { tx }
//   close                          closes the database; the main thread then ends the worker
//
// Every wait is bounded, as PostgreSQL's settings bound them on a server (PGlite, single-threaded
// WebAssembly, honours none of them): a statement or transaction that waits longer than `lockMs`
// for the connection fails with 55P03 having done nothing, and a transaction left with no
// statement running for `idleInTransactionMs` is rolled back (its next statement fails with 25P03).
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

const { dataDir, startFrom, sharedBuffers, pgliteWasmModule, initdbWasmModule, timeouts } = workerData;
// The modules come compiled from the main thread (compiled once per process). `startFrom`, a data
// directory dumped by PGlite's dumpDataDir, spares an in-memory database its initdb.
// `sharedBuffers`, when given, replaces PostgreSQL's default of 128 MB (see pglite-adapter.ts).
const db = new PGlite({
  ...(dataDir ? { dataDir } : {}),
  ...(startFrom ? { loadDataDir: new Blob([readFileSync(startFrom)]) } : {}),
  ...(sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] } : {}),
  pgliteWasmModule,
  initdbWasmModule,
});

/** An error as the main thread rebuilds it: message and the SQLSTATE fields (code, constraint, detail…). */
function described(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

function databaseError(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * The one connection: whoever holds it runs, the rest wait in arrival order, each at most `lockMs`.
 * `acquire()` resolves to the function that gives it back.
 */
const connection = {
  held: false,
  waiting: [],
  acquire() {
    if (!this.held) {
      this.held = true;
      return Promise.resolve(() => this.release());
    }
    return new Promise((admitted, refused) => {
      const waiter = {
        admit: () => {
          clearTimeout(timer);
          admitted(() => this.release());
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        refused(databaseError('55P03', `waited more than ${timeouts.lockMs} ms for the embedded database`));
      }, timeouts.lockMs);
      this.waiting.push(waiter);
    });
  },
  release() {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.held = false;
  },
};

/** Transactions begun and not yet ended: how to give the connection back, the idle timer, why it ended early. */
const transactions = new Map();

/**
 * Statements by text, each parsed and described once as a named prepared statement, then run by
 * Bind + Execute + Sync: no parse and analysis per run. Least recently used first; the oldest is
 * closed beyond MAX_STATEMENTS (SQL built at run time, such as a TRUNCATE of a list of tables,
 * must not fill memory).
 */
const statements = new Map();
const MAX_STATEMENTS = 500;
let statementsNamed = 0;
const wire = protocol.serialize;

function joined(parts) {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const executeAndSync = joined([wire.execute({}), wire.sync()]);

async function prepare(text) {
  const name = `tillpoint_${++statementsNamed}`;
  const { messages } = await db.execProtocol(joined([wire.parse({ name, text }), wire.describe({ type: 'S', name }), wire.sync()]), {
    syncToFs: false,
  });
  const statement = {
    name,
    types: messages.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [],
    rowDescription: messages.find((m) => m.name === 'rowDescription'),
  };
  statements.set(text, statement);
  if (statements.size > MAX_STATEMENTS) {
    const [oldest, { name: oldestName }] = statements.entries().next().value;
    statements.delete(oldest);
    await forget(oldestName);
  }
  return statement;
}

async function forget(name) {
  await db.execProtocol(joined([wire.close({ type: 'S', name }), wire.sync()]), { syncToFs: false, throwOnError: false });
}

/** A statement through its prepared form; the caller holds the connection. */
async function runPrepared(text, params, inTransaction, retried = false) {
  let statement = statements.get(text);
  if (statement) {
    statements.delete(text);
    statements.set(text, statement);
  } else {
    statement = await prepare(text);
  }
  const values = params.map((value, i) => {
    if (value === null || value === undefined) return null;
    const serialize = db.serializers[statement.types[i]];
    return serialize ? serialize(value) : value.toString();
  });
  let messages;
  try {
    ({ messages } = await db.execProtocol(joined([wire.bind({ statement: statement.name, values }), executeAndSync]), {
      // Written through at once outside a transaction, at COMMIT inside one.
      syncToFs: !inTransaction,
    }));
  } catch (error) {
    // The statement's tables changed shape since it was prepared ("cached plan must not change
    // result type"): prepare it again. Outside a transaction nothing was done, so run it again.
    if (error?.code === '0A000' && statements.get(text) === statement) {
      statements.delete(text);
      await forget(statement.name);
      if (!inTransaction && !retried) return runPrepared(text, params, inTransaction, true);
    }
    throw error;
  }
  const [result] = parse.parseResults(statement.rowDescription ? [statement.rowDescription, ...messages] : messages, db.parsers);
  return result ?? { rows: [], affectedRows: 0 };
}

/** A plain statement without parameters (BEGIN, COMMIT, ROLLBACK). */
async function simple(text, syncToFs) {
  await db.execProtocol(wire.query(text), { syncToFs });
}

/** A script of several statements. */
async function script(text) {
  await db.exec(text);
  // A script is where tables change shape (migrations): statements prepared before it are
  // prepared again, rather than found stale (0A000) inside a transaction, which would fail it.
  if (statements.size > 0) {
    statements.clear();
    await simple('DEALLOCATE ALL', false);
  }
}

/** `work` in the open transaction `tx`, its idle timer stopped meanwhile. */
async function inTransaction(tx, work) {
  const open = transactions.get(tx);
  if (!open) throw new Error(`Transaction ${tx} is not open`);
  if (open.ended) throw open.ended;
  clearTimeout(open.idle);
  try {
    return await work();
  } finally {
    if (!open.ended) open.idle = idleTimer(tx);
  }
}

function idleTimer(tx) {
  return setTimeout(() => {
    const open = transactions.get(tx);
    if (!open || open.ended) return;
    open.ended = databaseError('25P03', `the transaction was idle for more than ${timeouts.idleInTransactionMs} ms and was rolled back`);
    simple('ROLLBACK', false)
      .catch(() => undefined)
      .finally(() => open.release());
  }, timeouts.idleInTransactionMs);
}

async function begin(tx) {
  const release = await connection.acquire();
  try {
    await simple('BEGIN', false);
  } catch (error) {
    release();
    throw error;
  }
  transactions.set(tx, { release, ended: null, idle: idleTimer(tx) });
}

async function end(tx, rollback) {
  const open = transactions.get(tx);
  if (!open) return;
  transactions.delete(tx);
  clearTimeout(open.idle);
  // Rolled back already for idling: the connection was given back then.
  if (open.ended) {
    if (rollback) return;
    throw open.ended;
  }
  try {
    // As on a server: COMMIT of a transaction in which a statement failed rolls it back.
    await simple(rollback ? 'ROLLBACK' : 'COMMIT', !rollback);
  } finally {
    open.release();
  }
}

/** `work` on the connection, in transaction `tx` when given, else once the connection is free. */
async function onConnection(tx, work) {
  if (tx !== undefined) return inTransaction(tx, () => work(true));
  const release = await connection.acquire();
  try {
    return await work(false);
  } finally {
    release();
  }
}

async function run(message) {
  switch (message.op) {
    case 'query': {
      try {
        const result = await onConnection(message.tx, (inTx) => runPrepared(message.text, message.params ?? [], inTx));
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      } catch (error) {
        if (error && typeof error === 'object') error.query ??= message.text;
        throw error;
      }
    }
    case 'exec':
      await onConnection(message.tx, () => script(message.script));
      return {};
    case 'begin':
      await begin(message.tx);
      return {};
    case 'commit':
      await end(message.tx, false);
      return {};
    case 'rollback':
      await end(message.tx, true);
      return {};
    case 'close':
      await db.close();
      return {};
    default:
      throw new Error(`Unknown request ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  run(message).then(
    (answer) => parentPort.postMessage({ id: message.id, ...answer }),
    (error) => parentPort.postMessage({ id: message.id, error: described(error) }),
  );
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: described(error) }),
);

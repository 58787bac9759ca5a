// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, off
// the HTTP server's event loop, and answers the messages of pglite-client.ts. Plain JavaScript so
// that the worker needs no TypeScript loader, whichever way the main thread was started (tsx,
// vitest, a build).
//
// Requests: { id, op, ... }; answers: { id, rows, rowCount } or { id, error }.
//   query  { text, params, tx? }   a statement, alone or inside transaction `tx`
//   exec   { script }              several statements (migrations)
//   begin  { tx }                  opens PGlite's transaction `tx` and keeps it open (its lock held,
//                                  so every other statement waits) until commit or rollback
//   commit { tx } / rollback { tx }
//   close                          closes the database; the main thread then ends the worker
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { bindMessage } from './pglite-bind.mjs';

const { dataDir, pgliteWasmModule, initdbWasmModule } = workerData;
// The modules come compiled from the main thread (compiled once per process).
const db = new PGlite({ ...(dataDir ? { dataDir } : {}), pgliteWasmModule, initdbWasmModule });

class Rollback extends Error {}

/** Transactions begun and not yet ended: their PGlite handle and how to end them. */
const transactions = new Map();

/** An error as the main thread rebuilds it: message and the SQLSTATE fields (code, constraint, detail…). */
function described(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/**
 * Statements by text, each parsed and described once as a named prepared statement, then run by
 * one Bind + Execute + Sync: one call into PostgreSQL instead of PGlite's six (Parse, Describe,
 * Bind, Describe, Execute, Sync) and no parse and analysis per run. Least recently used first;
 * the oldest is closed beyond MAX_STATEMENTS (SQL built at run time, such as a TRUNCATE of a list
 * of tables, must not fill memory).
 */
const statements = new Map();
const MAX_STATEMENTS = 500;
let statementsNamed = 0;
const wire = protocol.serialize;
const executeAndSync = joined([wire.execute({}), wire.sync()]);

function joined(parts) {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

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

/** A statement through its prepared form; the caller holds PGlite's query lock. */
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
    ({ messages } = await db.execProtocol(joined([bindMessage(statement.name, values), executeAndSync]), {
      // As PGlite's own query: written through at once outside a transaction, at COMMIT inside one.
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

/** A statement, alone (behind any open transaction, as PGlite's own `query`) or inside a transaction begun here. */
async function statement(text, params = [], inTransaction) {
  const run = () => db._runExclusiveQuery(() => runPrepared(text, params, inTransaction));
  try {
    return await (inTransaction ? run() : db._runExclusiveTransaction(run));
  } catch (error) {
    if (error && typeof error === 'object') error.query ??= text;
    throw error;
  }
}

function begin(tx) {
  return new Promise((opened, failed) => {
    const closed = db.transaction(async (inner) => {
      const rollback = await new Promise((end) => {
        transactions.set(tx, { inner, end, closed });
        opened();
      });
      if (rollback) throw new Rollback();
    });
    closed.catch((error) => {
      if (!transactions.has(tx)) failed(error);
    });
  });
}

async function end(tx, rollback) {
  const open = transactions.get(tx);
  if (!open) return;
  open.end(rollback);
  try {
    await open.closed;
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  } finally {
    transactions.delete(tx);
  }
}

async function run(message) {
  switch (message.op) {
    case 'query': {
      if (message.tx !== undefined && !transactions.has(message.tx)) throw new Error(`Transaction ${message.tx} is not open`);
      const result = await statement(message.text, message.params, message.tx !== undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    case 'exec':
      await db.exec(message.script);
      // A script is where tables change shape (migrations): statements prepared before it are
      // prepared again, rather than found stale (0A000) inside a transaction, which would fail it.
      if (statements.size > 0) {
        statements.clear();
        await db.exec('DEALLOCATE ALL');
      }
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

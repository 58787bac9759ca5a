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
import { PGlite } from '@electric-sql/pglite';

const db = workerData.dataDir ? new PGlite(workerData.dataDir) : new PGlite();

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
      const target = message.tx === undefined ? db : transactions.get(message.tx)?.inner;
      if (!target) throw new Error(`Transaction ${message.tx} is not open`);
      const result = await target.query(message.text, message.params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    case 'exec':
      await db.exec(message.script);
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

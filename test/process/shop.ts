import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type SqlClient } from '../../src/persistence/sql-client';
import { periodicJobs } from '../../src/runtime/scheduler';
import { seededDataDir } from '../support/pglite-template';
import { afterAll, beforeAll } from 'vitest';
import { cli, startServe, stopAll, type ServerProcess } from '../support/processes';

/**
 * What the restart tests share: a database of their own (a PGlite DATA_DIR, or a fresh schema on the
 * test PostgreSQL server), an account made with the CLI, shoppers' sessions and card tokens made
 * ahead, and shoppers paying each over a connection of its own.
 */
export interface ShopDatabase {
  name: string;
  /** Environment for `tillpoint` processes. */
  env: Record<string, string>;
  /** Opens the database in this process (PGlite: only while no server runs). */
  open(): Promise<SqlClient>;
  remove(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;

/** How often the server runs one of its periodic jobs (src/runtime/scheduler.ts), so a bound built on it follows it. */
export function jobInterval(name: string): number {
  const job = periodicJobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no periodic job named ${name}`);
  return job.everyMs;
}

export const shopDatabases: Array<{ name: string; make: () => Promise<ShopDatabase> }> = [
  {
    name: 'PGlite',
    make: async () => {
      const dataDir = seededDataDir('tillpoint-restart-', { migrated: true });
      return {
        name: 'PGlite',
        env: { DATA_DIR: dataDir },
        open: () => openPglite(dataDir),
        remove: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  ...(postgresUrl
    ? [
        {
          name: 'PostgreSQL',
          make: async (): Promise<ShopDatabase> => {
            const schema = `restart_${randomBytes(5).toString('hex')}`;
            const admin = await openPostgres(postgresUrl, { max: 1 });
            await admin.query(`CREATE SCHEMA ${schema}`);
            await admin.close();
            const url = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
            const dataDir = mkdtempSync(path.join(tmpdir(), 'tillpoint-restart-'));
            return {
              name: 'PostgreSQL',
              env: { DATABASE_URL: url, DATA_DIR: dataDir },
              open: () => openPostgres(url, { max: 2 }),
              remove: async () => {
                const db = await openPostgres(postgresUrl, { max: 1 });
                await db.query(`DROP SCHEMA ${schema} CASCADE`);
                await db.close();
                rmSync(dataDir, { recursive: true, force: true });
              },
            };
          },
        },
      ]
    : []),
];

/** A merchant account made with `tillpoint account create`; its test secret key. */
export async function createShop(env: Record<string, string>): Promise<string> {
  const run = await cli(['account', 'create', '--name', 'Restart Shop', '--json'], env);
  if (run.code !== 0) throw new Error(`account create failed: ${run.stderr}`);
  return (JSON.parse(run.stdout.trim().split('\n').pop()!) as { test_secret_key: string }).test_secret_key;
}

export interface Answer {
  status: number | null;
  body: string;
  /** The answer's headers (empty when there was no answer). */
  headers: http.IncomingHttpHeaders;
  /** The connection failed without an answer (reset, refused, hung up). */
  error: string | null;
}

/** One request over a connection of its own (no keep-alive pool), so no answer waits on another's. */
export function request(
  base: string,
  method: string,
  url: string,
  options: { body?: unknown; key?: string; headers?: Record<string, string>; onSent?: () => void } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent: false,
        headers: {
          ...options.headers,
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, error: null }));
        res.on('error', (error) => resolve({ status: null, body: '', headers: {}, error: String(error) }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: null, body: '', headers: {}, error: error.code ?? error.message }));
    // The whole request is handed to the operating system: the server can read it.
    if (options.onSent) req.on('finish', options.onSent);
    req.end(payload);
  });
}

/** How long a setup call keeps sending again a request refused 503 (`database_unavailable`: nothing was done). */
const RETRY_UNAVAILABLE_MS = 30_000;

/**
 * A call that must succeed, answered as JSON. A 503 `database_unavailable` (a lock or the embedded
 * database's one connection not had in time, which changed nothing) is sent again after its
 * Retry-After, for up to 30 s: the tests that make shoppers and lists on a loaded machine are not
 * about that refusal, which tests of their own cover.
 */
export async function json(base: string, method: string, url: string, options: { body?: unknown; key?: string } = {}): Promise<Record<string, any>> {
  const deadline = Date.now() + RETRY_UNAVAILABLE_MS;
  for (;;) {
    const answer = await request(base, method, url, options);
    const unavailable = answer.status === 503 && answer.body.includes('"database_unavailable"');
    if (unavailable && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.headers['retry-after'] ?? 1)));
      continue;
    }
    if (answer.status === null || answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status ?? answer.error} ${answer.body}`);
    return JSON.parse(answer.body) as Record<string, any>;
  }
}

/** Every object of a merchant API list (`/v1/payments`, `/v1/refunds`…), page after page. */
export async function listAll(base: string, path: string, key: string): Promise<Array<Record<string, any>>> {
  const all: Array<Record<string, any>> = [];
  for (let after = ''; ; ) {
    const page = await json(base, 'GET', `${path}?limit=100${after ? `&starting_after=${after}` : ''}`, { key });
    all.push(...(page.data as Array<Record<string, any>>));
    if (!page.has_more) return all;
    after = String(all[all.length - 1]!.id);
  }
}

export interface Shopper {
  sessionId: string;
  nonce: string;
}

/** `count` open sessions, each with a Visa test card tokenized for it (made `atOnce` at a time). */
export async function shoppers(base: string, key: string, count: number, options: { amount?: number; atOnce?: number } = {}): Promise<Shopper[]> {
  const made: Shopper[] = [];
  const atOnce = options.atOnce ?? 16;
  for (let i = 0; i < count; i += atOnce) {
    made.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(atOnce, count - i) }, async () => {
          const session = await json(base, 'POST', '/v1/checkout/sessions', {
            key,
            body: { currency: 'usd', line_items: [{ name: 'Beans', unit_amount: options.amount ?? 1500, quantity: 1 }] },
          });
          const { nonce } = await json(base, 'POST', `/api/checkout/sessions/${session.id}/card-tokens`, {
            body: { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' },
          });
          return { sessionId: String(session.id), nonce: String(nonce) };
        }),
      )),
    );
  }
  return made;
}

/** The shopper presses Pay; `onSent` when the request is all handed to the network. */
export const pay = (base: string, shopper: Shopper, onSent?: () => void) =>
  request(base, 'POST', `/api/checkout/sessions/${shopper.sessionId}/payments`, {
    body: { payment_method_type: 'card', nonce: shopper.nonce, email: 'shopper@example.com' },
    onSent,
  });

/**
 * Counts requests handed to the network: `all` resolves once `expected` were. A test that signals
 * a server "with requests in flight" waits for it, so a client slowed by the machine's load has
 * sent every request the test counts on before the signal (a request never sent cannot be answered).
 */
export function sentCounter(expected: number): { onSent: () => void; all: Promise<void> } {
  let sent = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  if (expected === 0) done();
  return {
    onSent: () => {
      sent += 1;
      if (sent === expected) done();
    },
    all,
  };
}

/**
 * The shop of a burst suite: its database made and its account created before the suite, every
 * server it started stopped and the database removed after. `serve(env)` starts `tillpoint serve` on it
 * with a rate limit no burst reaches, and the settings in `env`.
 */
export function useBurstShop(make: () => Promise<ShopDatabase>): {
  readonly database: ShopDatabase;
  readonly key: string;
  serve(env?: Record<string, string>): Promise<ServerProcess>;
} {
  let database: ShopDatabase | null = null;
  let key = '';
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = await make();
    key = await createShop(database.env);
  }, 120_000);
  afterAll(async () => {
    await stopAll(servers);
    await database?.remove();
  });
  return {
    get database() {
      if (!database) throw new Error('the shop is made before the suite');
      return database;
    },
    get key() {
      return key;
    },
    async serve(env: Record<string, string> = {}) {
      const server = await startServe({ ...this.database.env, RATE_LIMIT_TEST_PER_SECOND: '100000', ...env });
      servers.push(server);
      return server;
    },
  };
}

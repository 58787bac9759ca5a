import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import type { SqlClient } from '../../src/persistence/sql-client';
import { truncateAll, type TestDatabase } from './databases';
import { apiKeyCodes, availabilityCodes, billingCodes, dashboardCodes, design, disputeCodes, receiptCodes, requestCodes } from './expected-errors';
import { startHarness, type Harness, type HarnessOptions } from './harness';

/** Every code an answer may carry, with its status and type, from the hand-written expectations. */
export const errorTypes: Record<string, { status: number; type: string }> = {
  ...design,
  ...dashboardCodes,
  ...requestCodes,
  ...availabilityCodes,
  ...disputeCodes,
  ...receiptCodes,
  ...billingCodes,
  ...apiKeyCodes,
};

export interface ErrorEnvelope {
  error: {
    type: string;
    code: string;
    message: string;
    param?: string;
    decline_code?: string;
    request_id: string;
  };
}

/**
 * Asserts a response is the design.md §8 error envelope with this status and code (the type follows
 * from the code), and that `param` / `decline_code` are exactly as given (absent when not given).
 */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  extra: { param?: string; decline_code?: string } = {},
): ErrorEnvelope['error'] {
  let body: ErrorEnvelope;
  try {
    body = res.json();
  } catch {
    throw new Error(`expected a JSON error envelope, got ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }
  expect({ status: res.statusCode, code: body.error?.code }, res.body).toEqual({ status, code });
  const { error } = body;
  expect(Object.keys(body)).toEqual(['error']);
  expect(errorTypes[code], `unknown code ${code}`).toBeDefined();
  expect(errorTypes[code]!.status).toBe(status);
  expect(error.type).toBe(errorTypes[code]!.type);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.request_id).toMatch(/^req_[0-9A-Za-z]+$/);
  expect(res.headers['request-id']).toBe(error.request_id);
  for (const key of Object.keys(error)) {
    expect(['type', 'code', 'message', 'param', 'decline_code', 'request_id']).toContain(key);
  }
  expect(error.param).toBe(extra.param);
  expect(error.decline_code).toBe(extra.decline_code);
  return error;
}

export interface IntegrationContext {
  db: SqlClient;
  h: Harness;
  /** A fresh account made before each test, and its test secret key. */
  accountId: string;
  key: string;
}

/**
 * Registers the hooks every integration suite shares: the database opened once per suite, the
 * real server over it, and before each test an emptied database, an emptied log and a new account.
 */
export function useIntegration(database: TestDatabase, options: HarnessOptions = {}): IntegrationContext {
  const ctx = {} as IntegrationContext;
  beforeAll(async () => {
    ctx.db = await database.openMigrated();
    ctx.h = await startHarness(ctx.db, options);
  });
  afterAll(async () => {
    await ctx.h?.app.close();
    await ctx.db?.close();
  });
  beforeEach(async () => {
    await truncateAll(ctx.db);
    ctx.h.logLines.length = 0;
    const created = await createAccount(ctx.h.tillpoint.deps, { name: 'Test Shop' });
    ctx.accountId = created.account.id;
    ctx.key = created.testSecretKey;
  });
  return ctx;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A merchant API call with the given key. */
export function merchantCall(h: Harness, key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  return h.app.inject({
    method,
    url,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export const sampleSession = {
  currency: 'usd',
  line_items: [
    { name: 'Single-origin beans, 250 g', unit_amount: 1450, quantity: 2 },
    { name: 'Filter papers', unit_amount: 600, quantity: 1 },
  ],
};

/** Opens a session through the API (USD 35.00 unless told otherwise) and returns its JSON. */
export async function createSession(ctx: IntegrationContext, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/checkout/sessions', { ...sampleSession, ...overrides });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A session whose total is exactly `amount` minor units of USD. */
export function createSessionOf(ctx: IntegrationContext, amount: number, overrides: Record<string, unknown> = {}) {
  return createSession(ctx, {
    line_items: [{ name: 'One thing', unit_amount: amount, quantity: 1 }],
    ...overrides,
  });
}

export const testCard = { number: '4111 1111 1111 1111', exp_month: 12, exp_year: 2034, cvc: '123' };

export function tokenizeCall(h: Harness, sessionId: string, card: Record<string, unknown> = testCard) {
  return h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/card-tokens`, payload: card });
}

/** Tokenizes a card on the session's checkout page and returns the nonce. */
export async function tokenize(h: Harness, sessionId: string, card: Record<string, unknown> = testCard): Promise<string> {
  const res = await tokenizeCall(h, sessionId, card);
  expect(res.statusCode, res.body).toBe(200);
  const { nonce } = res.json();
  expect(typeof nonce).toBe('string');
  return nonce;
}

export function payCall(h: Harness, sessionId: string, nonce: string, email = 'shopper@example.com') {
  return h.app.inject({
    method: 'POST',
    url: `/api/checkout/sessions/${sessionId}/payments`,
    payload: { payment_method_type: 'card', nonce, email },
  });
}

/** Starts a running pay-button experiment (two even variants) on the key's account. */
export async function runPayButtonExperiment(h: Harness, key: string): Promise<void> {
  const res = await merchantCall(h, key, 'POST', '/v1/experiments', {
    key: 'pay_button_wording',
    variants: [
      { key: 'pay', weight: 1 },
      { key: 'pay_now', weight: 1 },
    ],
    planned_sample_size: 10,
    status: 'running',
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Records the session's exposure to the pay-button experiment, as its checkout page does. */
export async function recordPayButtonExposure(h: Harness, sessionId: string): Promise<void> {
  const res = await h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${sessionId}/exposures`, payload: { key: 'pay_button_wording' } });
  expect(res.json().recorded).toBe(true);
}

/** Rows of a table (a raw look at the database, beside the API). */
export async function rows(db: SqlClient, sql: string, params: unknown[] = []): Promise<Record<string, any>[]> {
  return (await db.query<Record<string, any>>(sql, params)).rows;
}

export async function countRows(db: SqlClient, table: string): Promise<number> {
  const [row] = await rows(db, `SELECT count(*)::int AS n FROM "${table}"`);
  return Number(row!.n);
}

/**
 * A dump without what records the requests themselves (the request log, written after the answer;
 * rate-limit counters; keys' and dashboard sessions' last use), so it shows what the requests changed.
 */
export function withoutBookkeeping(dump: Record<string, string[]>): Record<string, unknown[]> {
  const { api_requests: _log, api_request_scopes: _scopes, rate_limit_counters: _counters, ...rest } = dump;
  const tables: Record<string, unknown[]> = {};
  for (const [table, rows] of Object.entries(rest)) {
    tables[table] = rows
      .map((row) => {
        const parsed = JSON.parse(row) as Record<string, unknown>;
        if (table === 'api_keys') delete parsed.last_used_at;
        // A session's sliding expiry moves with every signed-in request.
        if (table === 'dashboard_sessions') return { id: parsed.id, user_id: parsed.user_id };
        return parsed;
      })
      .map((row) => JSON.stringify(row))
      .sort();
  }
  return tables;
}

/** Every row of every table of the current schema, each as its JSON text, read in one statement. */
export async function dumpDatabase(db: SqlClient): Promise<Record<string, string[]>> {
  const tables = (await rows(db, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)).map((t) => String(t.tablename));
  if (tables.length === 0) return {};
  const columns = tables.map((table, i) => `(SELECT coalesce(json_agg(row_to_json(t)::text), '[]') FROM "${table}" t)::text AS t${i}`);
  const [row] = await rows(db, `SELECT ${columns.join(', ')}`);
  return Object.fromEntries(tables.map((table, i) => [table, JSON.parse(String(row![`t${i}`])) as string[]]));
}

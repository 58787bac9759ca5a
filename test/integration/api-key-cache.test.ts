import { afterEach, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/domain/team/use-cases/revoke-api-key';
import { hashApiKey } from '../../src/domain/team/api-key-secret';
import { testDatabases } from '../support/databases';
import { startHarness, type Harness } from '../support/harness';
import { expectError, merchantCall, rows, useIntegration, type IntegrationContext } from '../support/integration';

/** The id of the context's test secret key. */
async function keyId(ctx: IntegrationContext): Promise<string> {
  const [row] = await rows(ctx.db, `SELECT id FROM api_keys WHERE account_id = $1 AND mode = 'test' AND kind = 'secret'`, [ctx.accountId]);
  return row!.id;
}

const revoke = async (ctx: IntegrationContext, on: Harness) =>
  revokeApiKey(on.tillpoint.deps, {
    scope: { accountId: ctx.accountId, mode: 'test' },
    actor: { type: 'user', id: 'usr_test', label: 'owner@example.com', ip: null },
    id: await keyId(ctx),
  });

const list = (h: Harness, key: string) => merchantCall(h, key, 'GET', '/v1/payments?limit=1');

/** Calls until the answer is no longer 200, for at most `ms`; returns the last answer. */
async function untilRefused(h: Harness, key: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await list(h, key);
    if (res.statusCode !== 200 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Calls until this instance keeps the key (a change announced a moment ago may still make it forget). */
async function warm(h: Harness, key: string) {
  const hash = await hashApiKey(key);
  const deadline = Date.now() + 5000;
  do {
    expect((await list(h, key)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (!h.tillpoint.deps.apiKeyCache.get(hash, h.clock.now().getTime()) && Date.now() < deadline);
}

/** The flag service's (OFREP) evaluation of a flag, with `key`. */
const evaluateFlag = (h: Harness, key: string) =>
  h.app.inject({ method: 'POST', url: '/ofrep/v1/evaluate/flags/card_enabled', headers: { authorization: `Bearer ${key}` }, payload: { context: {} } });

/** Instances whose rate limit a few seconds of calls in one (pinned) second cannot reach. */
const unlimited = { rateLimitPerSecond: { test: 100_000 } };

describe.each(testDatabases)('API key cache and rate-limit leases ($name)', (database) => {
  const ctx = useIntegration(database);
  let others: Harness[] = [];
  afterEach(async () => {
    await Promise.all(others.map((h) => h.app.close()));
    others = [];
  });

  it('a key revoked on this instance is refused by it at once, though it had just been used', async () => {
    expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
    expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
    await revoke(ctx, ctx.h);
    expectError(await list(ctx.h, ctx.key), 401, 'api_key_revoked');
  });

  it.runIf(database.name === 'postgres')('a key revoked on another instance is refused here within a few seconds', async () => {
    const [here, other] = [await startHarness(ctx.db, unlimited), await startHarness(ctx.db, unlimited)];
    others.push(here, other);
    // Both instances have found (and keep) the key.
    await warm(here, ctx.key);
    await warm(other, ctx.key);
    await revoke(ctx, other);
    expectError(await list(other, ctx.key), 401, 'api_key_revoked');
    expectError(await untilRefused(here, ctx.key, 5000), 401, 'api_key_revoked');
  });

  it('a key found once is trusted for at most 30 s: a change no instance announced is seen after that', async () => {
    await warm(ctx.h, ctx.key);
    // A change behind the instances' back: on PostgreSQL with its announcement switched off.
    if (database.name === 'postgres') await ctx.db.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
    try {
      await ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [await keyId(ctx)]);
    } finally {
      if (database.name === 'postgres') await ctx.db.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
    }
    ctx.h.clock.advance(29_000);
    expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
    ctx.h.clock.advance(1_000);
    expectError(await list(ctx.h, ctx.key), 401, 'api_key_revoked');
  });

  it.runIf(database.name === 'postgres')('an instance whose change feed is cut forgets every key it kept', async () => {
    const here = await startHarness(ctx.db, unlimited);
    others.push(here);
    await warm(here, ctx.key);
    await ctx.db.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
    try {
      await ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [await keyId(ctx)]);
    } finally {
      await ctx.db.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
    }
    // Unannounced, the change is not seen yet...
    expect((await list(here, ctx.key)).statusCode).toBe(200);
    // ...until the listening connections are cut (every instance's on this server: each forgets all).
    await ctx.db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN tillpoint_api_keys'`);
    expectError(await untilRefused(here, ctx.key, 5000), 401, 'api_key_revoked');
  });

  it('the flag service (OFREP) takes the same keys, and refuses a key revoked here at once', async () => {
    const h = await startHarness(ctx.db, unlimited);
    others.push(h);
    const evaluate = () => evaluateFlag(h, ctx.key);
    for (let i = 0; i < 5; i++) {
      const res = await evaluate();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ key: 'card_enabled', value: true });
    }
    await revoke(ctx, h);
    expectError(await evaluate(), 401, 'api_key_revoked');
  });

  it.runIf(database.name === 'postgres')('the flag service refuses a key revoked on another instance within a few seconds, as the API does', async () => {
    const [here, other] = [await startHarness(ctx.db, unlimited), await startHarness(ctx.db, unlimited)];
    others.push(here, other);
    await warm(here, ctx.key);
    expect((await evaluateFlag(here, ctx.key)).statusCode).toBe(200);
    await revoke(ctx, other);
    const deadline = Date.now() + 5000;
    let res = await evaluateFlag(here, ctx.key);
    while (res.statusCode === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await evaluateFlag(here, ctx.key);
    }
    expectError(res, 401, 'api_key_revoked');
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startHarness, type Harness } from '../support/harness';
import { bearer, expectError, useIntegration } from '../support/integration';
import { liveKey } from '../support/keys';

/**
 * `count` calls, 20 in flight at a time: concurrent enough that instances lease at once, and few
 * enough at a time that no call waits past the database's 2 s bound for its turn on a loaded machine
 * (such a wait answers 503, a guarantee of its own, tested elsewhere).
 */
async function concurrently(count: number, call: (i: number) => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (let i = next++; i < count; i = next++) answers.push(await call(i));
    }),
  );
  return answers;
}

describe.each(testDatabases)('rate limits per account and mode ($name)', (database) => {
  const ctx = useIntegration(database);
  let second: Harness | null = null;
  afterEach(async () => {
    await second?.app.close();
    second = null;
  });

  const list = (h: Harness, key: string) => h.app.inject({ method: 'GET', url: '/v1/payments?limit=1', headers: bearer(key) });

  it('answers the 26th test-mode request in one second with 429 rate_limited and Retry-After, then recovers', async () => {
    // Pin the clock to the start of a second so all requests fall into one window.
    ctx.h.clock.current = new Date(Math.floor(Date.now() / 1000) * 1000);
    for (let i = 0; i < 25; i++) expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
    const limited = await list(ctx.h, ctx.key);
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Another account is not affected; the next second is a new window.
    expect((await list(ctx.h, await ctx.h.newAccountKey('Other'))).statusCode).toBe(200);
    ctx.h.clock.advance(1000);
    expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
  });

  it('allows 100 a second in live mode, counted apart from test mode', async () => {
    ctx.h.clock.current = new Date(Math.floor(Date.now() / 1000) * 1000);
    const live = await liveKey(ctx);
    const answers = await Promise.all(Array.from({ length: 101 }, () => list(ctx.h, live)));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(100);
    expectError(answers.find((res) => res.statusCode !== 200)!, 429, 'rate_limited');
    expect((await list(ctx.h, ctx.key)).statusCode).toBe(200);
  });

  // Each instance leases max(1, 5% of the limit) requests at a time from the shared counter, so two
  // together admit at most the limit and at least 90% of it in a second (docs/adr/0016-rate-limits-are-leased-from-a-shared-counter.md).
  const admittedIn = (statuses: number[]) => statuses.filter((s) => s === 200).length;

  it('shares one counter between two server instances on the same database: never above the limit, within 10% of it', async () => {
    ctx.h.clock.current = new Date(Math.floor(Date.now() / 1000) * 1000);
    second = await startHarness(ctx.db);
    second.clock.current = ctx.h.clock.current;
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      statuses.push((await list(ctx.h, ctx.key)).statusCode, (await list(second, ctx.key)).statusCode);
    }
    expect(admittedIn(statuses)).toBeLessThanOrEqual(25);
    expect(admittedIn(statuses)).toBeGreaterThanOrEqual(Math.ceil(25 * 0.9));
    for (const s of statuses) expect([200, 429]).toContain(s);
  });

  describe('with a limit of 200/s, where instances lease blocks of 10', () => {
    let pair: Harness[] = [];
    afterEach(async () => {
      await Promise.all(pair.map((h) => h.app.close()));
      pair = [];
    });

    it('two instances together admit 90–100% of it, under concurrent calls to both', async () => {
      pair = [await startHarness(ctx.db, { rateLimitPerSecond: { test: 200 } }), await startHarness(ctx.db, { rateLimitPerSecond: { test: 200 } })];
      const start = new Date(Math.floor(Date.now() / 1000) * 1000);
      for (const h of pair) h.clock.current = start;
      const answers = await concurrently(300, (i) => list(pair[i % 2]!, ctx.key));
      const admitted = admittedIn(answers.map((a) => a.statusCode));
      expect(admitted).toBeLessThanOrEqual(200);
      expect(admitted).toBeGreaterThanOrEqual(180);
      expectError(answers.find((a) => a.statusCode !== 200)!, 429, 'rate_limited');
      // The next second is a new window on both.
      for (const h of pair) h.clock.advance(1000);
      for (const h of pair) expect((await list(h, ctx.key)).statusCode).toBe(200);
    });

    it('an instance that leased a block and went quiet costs the other at most that block', async () => {
      pair = [await startHarness(ctx.db, { rateLimitPerSecond: { test: 200 } }), await startHarness(ctx.db, { rateLimitPerSecond: { test: 200 } })];
      const start = new Date(Math.floor(Date.now() / 1000) * 1000);
      for (const h of pair) h.clock.current = start;
      const [busy, quiet] = pair as [Harness, Harness];
      expect((await list(quiet, ctx.key)).statusCode).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 220; i++) statuses.push((await list(busy, ctx.key)).statusCode);
      const admitted = 1 + admittedIn(statuses);
      expect(admitted).toBeLessThanOrEqual(200);
      expect(admitted).toBeGreaterThanOrEqual(180);
      // The quiet one still spends what it holds; past that, it is refused too.
      const later: number[] = [];
      for (let i = 0; i < 15; i++) later.push((await list(quiet, ctx.key)).statusCode);
      expect(admitted + admittedIn(later)).toBe(200);
      expect(later.at(-1)).toBe(429);
    });
  });
});

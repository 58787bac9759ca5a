import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startHarness, type Harness } from '../support/harness';
import { bearer, expectError, useIntegration } from '../support/integration';
import { liveKey } from '../support/keys';

describe.each(testDatabases)('rate limits per account and mode ($name)', (database) => {
  const ctx = useIntegration(database);
  let second: Harness | null = null;
  afterEach(async () => {
    await second?.app.close();
    second = null;
  });

  const list = (h: Harness, key: string) =>
    h.app.inject({ method: 'GET', url: '/v1/payments?limit=1', headers: bearer(key) });

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

  it('shares one counter between two server instances on the same database', async () => {
    ctx.h.clock.current = new Date(Math.floor(Date.now() / 1000) * 1000);
    second = await startHarness(ctx.db);
    second.clock.current = ctx.h.clock.current;
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      statuses.push((await list(ctx.h, ctx.key)).statusCode, (await list(second, ctx.key)).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.slice(25).every((s) => s === 429)).toBe(true);
  });
});

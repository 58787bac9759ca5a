import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('database settings for a pooler', () => {
  it('reads DATABASE_DIRECT_URL beside DATABASE_URL, and none by default', () => {
    expect(readConfig({}).databaseDirectUrl).toBeNull();
    expect(readConfig({ DATABASE_URL: 'postgres://app@db:5432/shop' }).databaseDirectUrl).toBeNull();
    const config = readConfig({ DATABASE_URL: 'postgres://app@pgbouncer:6432/shop', DATABASE_DIRECT_URL: 'postgres://app@db:5432/shop' });
    expect(config.databaseUrl).toBe('postgres://app@pgbouncer:6432/shop');
    expect(config.databaseDirectUrl).toBe('postgres://app@db:5432/shop');
  });

  it('refuses DATABASE_DIRECT_URL without DATABASE_URL, and one that is not a postgres URL, naming it', () => {
    expect(() => readConfig({ DATABASE_DIRECT_URL: 'postgres://app@db:5432/shop' })).toThrow(ConfigError);
    expect(() => readConfig({ DATABASE_DIRECT_URL: 'postgres://app@db:5432/shop' })).toThrow(/Invalid DATABASE_DIRECT_URL: is set but DATABASE_URL is not/);
    expect(() => readConfig({ DATABASE_URL: 'postgres://app@pgbouncer/shop', DATABASE_DIRECT_URL: 'mysql://db/shop' })).toThrow('Invalid DATABASE_DIRECT_URL');
  });
});

describe('read replica settings', () => {
  it('reads one or more replica URLs, separated by commas, and a 2 s bound on lag by default', () => {
    expect(readConfig({}).databaseReplicaUrls).toEqual([]);
    const one = readConfig({ DATABASE_URL: 'postgres://app@db/shop', DATABASE_REPLICA_URL: 'postgres://app@replica-1/shop' });
    expect(one.databaseReplicaUrls).toEqual(['postgres://app@replica-1/shop']);
    expect(one.databaseReplicaMaxLagMs).toBe(2_000);
    const two = readConfig({
      DATABASE_URL: 'postgres://app@db/shop',
      DATABASE_REPLICA_URL: 'postgres://app@replica-1/shop, postgresql://app@replica-2:5433/shop',
      DATABASE_REPLICA_MAX_LAG_MS: '500',
    });
    expect(two.databaseReplicaUrls).toEqual(['postgres://app@replica-1/shop', 'postgresql://app@replica-2:5433/shop']);
    expect(two.databaseReplicaMaxLagMs).toBe(500);
  });

  it.each([
    ['DATABASE_REPLICA_URL', { DATABASE_URL: 'postgres://app@db/shop', DATABASE_REPLICA_URL: 'postgres://app@replica/shop,http://replica' }],
    ['DATABASE_REPLICA_URL', { DATABASE_URL: 'postgres://app@db/shop', DATABASE_REPLICA_URL: ' , ' }],
    ['DATABASE_REPLICA_URL', { DATABASE_REPLICA_URL: 'postgres://app@replica/shop' }],
    ['DATABASE_REPLICA_MAX_LAG_MS', { DATABASE_REPLICA_MAX_LAG_MS: '50' }],
    ['DATABASE_REPLICA_MAX_LAG_MS', { DATABASE_REPLICA_MAX_LAG_MS: 'soon' }],
  ])('refuses a bad %s, naming it', (name, env) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(`Invalid ${name}`);
  });
});

describe('the test processor latency for load tests', () => {
  it('answers at once by default, and after SANDBOX_LATENCY_MS when set', () => {
    expect(readConfig({}).sandboxLatencyMs).toBe(0);
    expect(readConfig({ SANDBOX_LATENCY_MS: '300' }).sandboxLatencyMs).toBe(300);
  });

  it.each(['-1', '1.5', '60001', 'slow'])('refuses SANDBOX_LATENCY_MS=%s, naming it', (value) => {
    expect(() => readConfig({ SANDBOX_LATENCY_MS: value })).toThrow('Invalid SANDBOX_LATENCY_MS');
  });
});

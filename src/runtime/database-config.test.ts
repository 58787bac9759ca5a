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

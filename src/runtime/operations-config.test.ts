import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('operations settings', () => {
  it('leaves /metrics open and gives shutdown 10 s when nothing is set', () => {
    const config = readConfig({});
    expect(config.metricsToken).toBeNull();
    expect(config.shutdownTimeoutSeconds).toBe(10);
  });

  it('reads METRICS_TOKEN and SHUTDOWN_TIMEOUT_SECONDS', () => {
    const config = readConfig({ METRICS_TOKEN: 'a'.repeat(64), SHUTDOWN_TIMEOUT_SECONDS: '25' });
    expect(config.metricsToken).toBe('a'.repeat(64));
    expect(config.shutdownTimeoutSeconds).toBe(25);
  });

  it.each([
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in it, 0123456789'],
    ['METRICS_TOKEN', 'Bearer0123456789abcdef\n'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '0'],
    ['SHUTDOWN_TIMEOUT_SECONDS', 'ten'],
  ])('refuses %s=%j, naming the variable', (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [name]: value })).toThrow(`Invalid ${name}`);
  });
});

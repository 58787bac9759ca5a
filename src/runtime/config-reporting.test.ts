import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config';

describe('error reporting and flag settings', () => {
  it('leaves reporting off and flags local when nothing is set; the release follows package.json', () => {
    const config = readConfig({});
    expect(config.sentry).toEqual({ dsn: null, browserDsn: null, environment: 'production', release: 'tillpoint@0.1.0', sampleRate: 1 });
    expect(config.flagsOfrepUrl).toBeNull();
  });

  it('reads DSNs of Sentry, self-hosted Sentry and GlitchTip, and the other settings', () => {
    const config = readConfig({
      SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/4505',
      SENTRY_BROWSER_DSN: 'https://pub@glitchtip.example.com/sub/path/12',
      SENTRY_ENVIRONMENT: 'staging',
      SENTRY_RELEASE: 'tillpoint@2026.06.01',
      SENTRY_SAMPLE_RATE: '0.25',
      FLAGS_OFREP_URL: 'https://flags.example.com/',
    });
    expect(config.sentry).toEqual({
      dsn: 'https://abc123@o1.ingest.sentry.io/4505',
      browserDsn: 'https://pub@glitchtip.example.com/sub/path/12',
      environment: 'staging',
      release: 'tillpoint@2026.06.01',
      sampleRate: 0.25,
    });
    expect(config.flagsOfrepUrl).toBe('https://flags.example.com');
  });

  it.each([
    ['SENTRY_DSN', 'https://sentry.io/123'],
    ['SENTRY_BROWSER_DSN', 'not a dsn'],
    ['SENTRY_SAMPLE_RATE', '1.5'],
    ['SENTRY_ENVIRONMENT', 'has space'],
    ['FLAGS_OFREP_URL', 'ftp://flags.example.com'],
  ])('a bad %s stops start-up naming it', (variable, value) => {
    expect(() => readConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [variable]: value })).toThrow(variable);
  });
});

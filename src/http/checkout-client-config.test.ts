import { describe, expect, it } from 'vitest';
import { readConfig } from '../runtime/config';
import { checkoutClientConfig, checkoutPagePolicy } from './checkout-client-config';

const connectSources = (policy: string) =>
  policy
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src')!
    .slice(1);

describe("the checkout page's run-time config and what its CSP lets it reach", () => {
  it('reaches the browser error-reporting service it is told about, and no flag service (the server evaluates the flags)', () => {
    const config = readConfig({
      SENTRY_BROWSER_DSN: 'https://pub@glitchtip.example.com/sub/path/12',
      FLAGS_OFREP_URL: 'https://flags.example.com/',
    });
    const client = checkoutClientConfig(config);
    expect(client).toEqual({ sentry: expect.objectContaining({ dsn: 'https://pub@glitchtip.example.com/sub/path/12' }) });
    const sources = connectSources(checkoutPagePolicy(client));
    expect(sources).toContain('https://glitchtip.example.com');
    expect(sources.filter((source) => source.includes('flags.example.com'))).toEqual([]);
  });

  it('without a browser DSN the page is told of no service and reaches none of its own', () => {
    const client = checkoutClientConfig(readConfig({ SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/4505' }));
    expect(client).toEqual({ sentry: null });
    const sources = connectSources(checkoutPagePolicy(client));
    expect(sources.filter((source) => source.includes('sentry.io'))).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig, settings, settingsMarkdown } from './config';

describe('the settings table', () => {
  it('is what docs/operations.md shows, row for row', () => {
    const docs = readFileSync(path.resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    // After adding or changing a setting, print the table and paste it into docs/operations.md:
    // npx tsx -e "import('./src/runtime/config.ts').then((c) => console.log(c.settingsMarkdown()))"
    expect(docs, 'docs/operations.md "## Settings" differs from src/runtime/config.ts').toContain(settingsMarkdown());
  });

  it('shows the defaults readConfig applies when nothing is set', () => {
    const shown = Object.fromEntries(settings().map((s) => [s.name, s.shownDefault]));
    const config = readConfig({});
    expect(shown.PORT).toBe(String(config.port));
    expect(shown.HOST).toBe(config.host);
    expect(shown.LOG_LEVEL).toBe(config.logLevel);
    expect(shown.SHUTDOWN_TIMEOUT_SECONDS).toBe(String(config.shutdownTimeoutSeconds));
    expect(shown.RATE_LIMIT_TEST_PER_SECOND).toBe(String(config.rateLimitPerSecond.test));
    expect(shown.CHECKOUT_PAGE_CHECK_MINUTES).toBe(String(config.checkoutPageCheckMinutes));
    expect(shown.SENTRY_ENVIRONMENT).toBe(config.sentry.environment);
    expect(shown.DATABASE_URL).toBe('—');
    expect(config.databaseUrl).toBeNull();
  });
});

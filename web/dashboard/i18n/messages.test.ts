import { parse } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import en from './en.json';

describe("the dashboard's messages (web/dashboard/i18n/en.json)", () => {
  it('are all valid ICU MessageFormat', () => {
    const invalid = Object.entries(en).flatMap(([key, message]) => {
      try {
        parse(message);
        return [];
      } catch (error) {
        return [`${key}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
  });

  it('say the same as the text they replaced', () => {
    expect(new IntlMessageFormat(en['common.none'], 'en').format({ what: 'payment links', mode: 'live' })).toBe('No payment links in live mode yet.');
    expect(new IntlMessageFormat(en['overview.lastDays'], 'en').format({ days: 30 })).toBe('Last 30 days');
    expect(new IntlMessageFormat(en['payments.card'], 'en').format({ brand: 'visa', last4: '4242' })).toBe('visa •••• 4242');
    const say = (key: keyof typeof en, values: Record<string, string | number>) => new IntlMessageFormat(en[key], 'en').format(values);
    expect(say('webhooks.deliverySummary', { created: 'Nov 23', attempts: 1, hasLast: 'yes', status: 200, ms: 12, hasNext: 'no', next: '' })).toBe(
      'Nov 23 · 1 attempt · last answer 200 in 12 ms',
    );
    expect(say('webhooks.deliverySummary', { created: 'Nov 23', attempts: 3, hasLast: 'no', status: 'none', ms: 0, hasNext: 'yes', next: 'Nov 24' })).toBe(
      'Nov 23 · 3 attempts · next attempt Nov 24',
    );
    expect(say('payment.threeDSecure.result', { status: 'authenticated', shifted: 'no' })).toBe('authenticated, liability not shifted');
    expect(say('processor.current', { processor: 'test', environment: '', merchant: '', changed: 'no', when: '' })).toBe(
      'The built-in test processor: test cards only, nothing is charged.',
    );
    expect(say('pageSecurity.history.entry', { when: 'Nov 23', count: 2, resolved: 'no', resolution: '', resolvedAt: '' })).toBe(
      'Nov 23: 2 differences — open',
    );
    expect(say('links.priceHint', {})).toBe("In the currency's unit, e.g. 12.50");
  });
});

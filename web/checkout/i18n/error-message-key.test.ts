import { describe, expect, it } from 'vitest';
import { declineMessages, errorMessageKey } from './index';

describe('errorMessageKey', () => {
  it('tells the shopper not to pay again when the database failed, since the processor may have charged', () => {
    expect(errorMessageKey('database_unavailable')).toBe('error.processor_timeout');
    expect(errorMessageKey('processor_timeout')).toBe('error.processor_timeout');
    expect(errorMessageKey('internal_error')).toBe('error.generic');
  });
});

describe('declineMessages', () => {
  it('names exactly the decline codes en.json has a message for, so each decline gets its own words', async () => {
    const { default: en } = await import('./locales/en.json');
    const inCatalogue = Object.keys(en)
      .filter((key) => key.startsWith('decline.') && key !== 'decline.generic')
      .map((key) => key.slice('decline.'.length));
    expect([...declineMessages].sort()).toEqual(inCatalogue.sort());
    expect(errorMessageKey('card_declined', 'insufficient_funds')).toBe('decline.insufficient_funds');
    expect(errorMessageKey('card_declined', 'do_not_honor')).toBe('decline.generic');
  });
});

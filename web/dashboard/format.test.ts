import { describe, expect, it } from 'vitest';
import { calendarDaysUntil, parseAmount, paymentMethodSummary } from './format';
import en from './i18n/en.json';

describe('parseAmount', () => {
  it('reads an amount in the currency unit as minor units, by the currency exponent', () => {
    expect(parseAmount('25.00', 'usd')).toBe(2500);
    expect(parseAmount('30', 'USD')).toBe(3000);
    expect(parseAmount('0.5', 'EUR')).toBe(50);
    expect(parseAmount(' 12,5 ', 'EUR')).toBe(1250);
    expect(parseAmount('1000', 'JPY')).toBe(1000);
    expect(parseAmount('1.234', 'KWD')).toBe(1234);
  });

  it('refuses what is not an amount, or has more decimals than the currency', () => {
    for (const [value, currency] of [
      ['', 'USD'],
      ['abc', 'USD'],
      ['-5', 'USD'],
      ['1e3', 'USD'],
      ['10.505', 'USD'],
      ['10.5', 'JPY'],
      ['1.2.3', 'USD'],
    ]) {
      expect(parseAmount(value!, currency!), value).toBeNull();
    }
  });
});

describe('paymentMethodSummary', () => {
  const t = (key: string, values: Record<string, string> = {}) =>
    (en as Record<string, string>)[key]!.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const none = { brand: null, last4: null };
  it('names a card by brand and last4, a wallet without a card by its name and payer, nothing by a dash', () => {
    expect(paymentMethodSummary({ type: 'card', brand: 'visa', last4: '4242' }, t)).toBe('visa •••• 4242');
    expect(paymentMethodSummary({ type: 'paypal', ...none, payer_email: 'ada@buyer.example' }, t)).toBe('PayPal · ada@buyer.example');
    expect(paymentMethodSummary({ type: 'venmo', ...none, username: 'ada-l' }, t)).toBe('Venmo · ada-l');
    // A card the processor failed on before telling its digits: still a card.
    expect(paymentMethodSummary({ type: 'card', ...none }, t)).toBe('Card');
    expect(paymentMethodSummary(null, t)).toBe('—');
  });

  it('names a local payment method by its own name and the bank paid from (its BIC when the bank has no name here)', () => {
    const ideal = { type: 'ideal', ...none, ideal: { bank: 'ing', bic: 'INGBNL2A', iban_last4: '5264' } };
    expect(paymentMethodSummary(ideal, t)).toBe('iDEAL · ing');
    const bancontact = { type: 'bancontact', ...none, bancontact: { bank: null, bic: 'GEBABEBB', iban_last4: null } };
    expect(paymentMethodSummary(bancontact, t)).toBe('Bancontact · GEBABEBB');
    expect(paymentMethodSummary({ type: 'blik', ...none }, t)).toBe('BLIK');
  });

  it('names an ACH debit by its bank and the last 4 digits of the account, never as a card', () => {
    const account = { bank_name: 'Tillpoint Test Bank', last4: '0011', routing_number: '011000015', account_type: 'checking', account_holder_type: 'personal' };
    expect(paymentMethodSummary({ type: 'us_bank_account', brand: null, last4: '0011', us_bank_account: account } as never, t)).toBe(
      'US bank account (ACH) · Tillpoint Test Bank •••• 0011',
    );
    expect(paymentMethodSummary({ type: 'us_bank_account', ...none }, t)).toBe('US bank account (ACH)');
  });
});

describe('calendarDaysUntil', () => {
  const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute).getTime() / 1000;
  it('counts the days to a date as shown, not whole 24-hour periods: a 7-day reply-by is 7 days away when it opens', () => {
    expect(calendarDaysUntil(at(12, 10) + 7 * 86400, at(12, 10))).toBe(7);
    expect(calendarDaysUntil(at(19, 10), at(12, 10, 1))).toBe(7);
    expect(calendarDaysUntil(at(13, 0, 30), at(12, 23, 30))).toBe(1);
    expect(calendarDaysUntil(at(12, 23), at(12, 1))).toBe(0);
    // Across a month's end.
    expect(calendarDaysUntil(new Date(2026, 11, 2, 9).getTime() / 1000, at(28, 9))).toBe(4);
  });
});

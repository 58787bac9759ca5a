import { describe, expect, it } from 'vitest';
import { parseAmount, paymentMethodSummary } from './format';
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
    for (const [value, currency] of [['', 'USD'], ['abc', 'USD'], ['-5', 'USD'], ['1e3', 'USD'], ['10.505', 'USD'], ['10.5', 'JPY'], ['1.2.3', 'USD']]) {
      expect(parseAmount(value!, currency!), value).toBeNull();
    }
  });
});

describe('paymentMethodSummary', () => {
  const t = (key: string, values: Record<string, string> = {}) => (en as Record<string, string>)[key]!.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
  const none = { brand: null, last4: null };
  it('names a card by brand and last4, a wallet without a card by its name and payer, nothing by a dash', () => {
    expect(paymentMethodSummary({ type: 'card', brand: 'visa', last4: '4242' }, t)).toBe('visa •••• 4242');
    expect(paymentMethodSummary({ type: 'paypal', ...none, payer_email: 'ada@buyer.example' }, t)).toBe('PayPal · ada@buyer.example');
    expect(paymentMethodSummary({ type: 'venmo', ...none, username: 'ada-l' }, t)).toBe('Venmo · ada-l');
    // A card the processor failed on before telling its digits: still a card.
    expect(paymentMethodSummary({ type: 'card', ...none }, t)).toBe('Card');
    expect(paymentMethodSummary(null, t)).toBe('—');
  });
});

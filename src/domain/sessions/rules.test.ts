import { describe, expect, it } from 'vitest';
import { buildCheckoutSession, isAbsoluteHttpUrl, type NewCheckoutSession } from './rules';
import { supportedCurrencies } from '../shared/currency';
import { TillpointError } from '../shared/errors';
import type { Scope } from '../shared/scope';

const scope: Scope = { accountId: 'acct_test_1', mode: 'test' };
const now = new Date('2030-06-15T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function input(overrides: Partial<NewCheckoutSession> = {}): NewCheckoutSession {
  return {
    currency: 'usd',
    lineItems: [{ name: 'T-shirt', unitAmount: 2000, quantity: 2 }],
    ...overrides,
  };
}

function items(count: number, unitAmount = 100): NewCheckoutSession['lineItems'] {
  return Array.from({ length: count }, (_, i) => ({ name: `Item ${i + 1}`, unitAmount, quantity: 1 }));
}

/** Runs buildCheckoutSession expecting a refusal, and returns the TillpointError it threw. */
function refusal(overrides: Partial<NewCheckoutSession>): TillpointError {
  try {
    buildCheckoutSession(input(overrides), scope, now);
  } catch (error) {
    expect(error).toBeInstanceOf(TillpointError);
    return error as TillpointError;
  }
  throw new Error(`expected a refusal for ${JSON.stringify(overrides)}`);
}

function expectRefused(overrides: Partial<NewCheckoutSession>, code: string, param: string): TillpointError {
  const error = refusal(overrides);
  expect({ code: error.code, param: error.param }).toEqual({ code, param });
  // Every validation refusal is a 400 invalid_request_error (design.md §8).
  expect(error.status).toBe(400);
  expect(error.type).toBe('invalid_request_error');
  return error;
}

function build(overrides: Partial<NewCheckoutSession> = {}) {
  return buildCheckoutSession(input(overrides), scope, now);
}

describe('buildCheckoutSession: currency', () => {
  it.each(['XXX', 'ABC', 'US', '', 'usdollar'])('refuses %j with currency_not_supported', (currency) => {
    expectRefused({ currency }, 'currency_not_supported', 'currency');
  });

  it('upper-cases the currency', () => {
    expect(build({ currency: 'usd' }).currency).toBe('USD');
    expect(build({ currency: 'eUr' }).currency).toBe('EUR');
  });

  it('accepts every supported currency at its minimum amount', () => {
    for (const rule of supportedCurrencies) {
      const session = build({
        currency: rule.code.toLowerCase(),
        lineItems: [{ name: 'x', unitAmount: rule.minimum, quantity: 1 }],
      });
      expect(session.currency).toBe(rule.code);
      expect(session.amountTotal).toBe(rule.minimum);
    }
  });
});

describe('buildCheckoutSession: line items', () => {
  it('refuses 0 line items', () => {
    expectRefused({ lineItems: [] }, 'parameter_invalid', 'line_items');
  });

  it('refuses 101 line items and accepts 100 and 1', () => {
    expectRefused({ lineItems: items(101) }, 'parameter_invalid', 'line_items');
    expect(build({ lineItems: items(100) }).lineItems).toHaveLength(100);
    expect(build({ lineItems: items(1, 50) }).lineItems).toHaveLength(1);
  });

  it.each([0, 1000, -1, 1.5])('refuses quantity %s', (quantity) => {
    expectRefused({ lineItems: [{ name: 'x', unitAmount: 100, quantity }] }, 'parameter_invalid', 'line_items[0][quantity]');
  });

  it('accepts quantity 1 and 999', () => {
    expect(build({ lineItems: [{ name: 'x', unitAmount: 100, quantity: 1 }] }).lineItems[0]!.quantity).toBe(1);
    expect(build({ lineItems: [{ name: 'x', unitAmount: 100, quantity: 999 }] }).lineItems[0]!.quantity).toBe(999);
  });

  it('names the offending item by its index', () => {
    expectRefused({ lineItems: [...items(2), { name: 'third', unitAmount: 100, quantity: 0 }] }, 'parameter_invalid', 'line_items[2][quantity]');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['251 characters', 'n'.repeat(251)],
  ])('refuses a %s name', (_, name) => {
    expectRefused({ lineItems: [{ name, unitAmount: 100, quantity: 1 }] }, 'parameter_invalid', 'line_items[0][name]');
  });

  it('accepts a 1- and a 250-character name', () => {
    expect(build({ lineItems: [{ name: 'a', unitAmount: 100, quantity: 1 }] }).lineItems[0]!.name).toBe('a');
    const long = 'n'.repeat(250);
    expect(build({ lineItems: [{ name: long, unitAmount: 100, quantity: 1 }] }).lineItems[0]!.name).toBe(long);
  });

  it.each([-1, -5000, 10.5, Number.NaN])('refuses unit_amount %s', (unitAmount) => {
    expectRefused({ lineItems: [{ name: 'x', unitAmount, quantity: 1 }] }, 'parameter_invalid', 'line_items[0][unit_amount]');
  });

  it('accepts a free item (unit_amount 0) beside a paid one', () => {
    const session = build({
      lineItems: [
        { name: 'gift wrap', unitAmount: 0, quantity: 1 },
        { name: 'book', unitAmount: 1500, quantity: 1 },
      ],
    });
    expect(session.lineItems[0]!.amount).toBe(0);
    expect(session.amountTotal).toBe(1500);
  });
});

describe('buildCheckoutSession: amount bounds', () => {
  it.each([
    ['USD', 49, 50],
    ['EUR', 49, 50],
    ['GBP', 29, 30],
    ['JPY', 49, 50],
  ])('%s: %i is amount_too_small, %i is accepted', (currency, below, minimum) => {
    expectRefused({ currency, lineItems: [{ name: 'x', unitAmount: below, quantity: 1 }] }, 'amount_too_small', 'line_items');
    expect(build({ currency, lineItems: [{ name: 'x', unitAmount: minimum, quantity: 1 }] }).amountTotal).toBe(minimum);
  });

  it('judges the minimum on the total, not per item', () => {
    const session = build({ lineItems: [{ name: 'sticker', unitAmount: 10, quantity: 5 }] });
    expect(session.amountTotal).toBe(50);
    expectRefused({ lineItems: [{ name: 'sticker', unitAmount: 7, quantity: 7 }] }, 'amount_too_small', 'line_items');
  });

  it('refuses an all-free cart', () => {
    expectRefused({ lineItems: [{ name: 'x', unitAmount: 0, quantity: 1 }] }, 'amount_too_small', 'line_items');
  });

  it('refuses a total above 99,999,999 and accepts exactly 99,999,999', () => {
    expectRefused({ lineItems: [{ name: 'x', unitAmount: 100_000_000, quantity: 1 }] }, 'amount_too_large', 'line_items');
    expectRefused({ lineItems: [{ name: 'x', unitAmount: 50_000_000, quantity: 2 }] }, 'amount_too_large', 'line_items');
    expect(build({ lineItems: [{ name: 'x', unitAmount: 99_999_999, quantity: 1 }] }).amountTotal).toBe(99_999_999);
  });
});

describe('buildCheckoutSession: URLs', () => {
  it.each([
    '/success',
    'success',
    '//example.com/done',
    'ftp://example.com/done',
    'javascript:alert(1)',
    'data:text/html,hi',
    'mailto:shop@example.com',
    'https://',
    'not a url',
  ])('refuses success_url %j', (successUrl) => {
    expectRefused({ successUrl }, 'parameter_invalid', 'success_url');
  });

  it.each(['/cancel', 'ftp://example.com/cancel', 'javascript:history.back()'])('refuses cancel_url %j', (cancelUrl) => {
    expectRefused({ cancelUrl }, 'parameter_invalid', 'cancel_url');
  });

  it('accepts absolute http and https URLs and keeps them as given', () => {
    const session = build({
      successUrl: 'https://shop.example.com/thanks?order=42',
      cancelUrl: 'http://localhost:3000/cart',
    });
    expect(session.successUrl).toBe('https://shop.example.com/thanks?order=42');
    expect(session.cancelUrl).toBe('http://localhost:3000/cart');
  });

  it('allows the {CHECKOUT_SESSION_ID} placeholder, kept verbatim for substitution later', () => {
    const successUrl = 'https://shop.example.com/thanks?session_id={CHECKOUT_SESSION_ID}';
    expect(build({ successUrl }).successUrl).toBe(successUrl);
    const inPath = 'https://shop.example.com/orders/{CHECKOUT_SESSION_ID}/done';
    expect(build({ successUrl: inPath }).successUrl).toBe(inPath);
  });

  it('leaves both URLs null when not given (the receipt page is used instead)', () => {
    const session = build();
    expect(session.successUrl).toBeNull();
    expect(session.cancelUrl).toBeNull();
  });

  it('isAbsoluteHttpUrl agrees with the rule', () => {
    expect(isAbsoluteHttpUrl('https://example.com')).toBe(true);
    expect(isAbsoluteHttpUrl('http://example.com/{CHECKOUT_SESSION_ID}')).toBe(true);
    expect(isAbsoluteHttpUrl('/relative')).toBe(false);
    expect(isAbsoluteHttpUrl('ftp://example.com')).toBe(false);
  });
});

describe('buildCheckoutSession: metadata', () => {
  function keys(count: number): Record<string, string> {
    return Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, `value ${i}`]));
  }

  it('refuses 51 keys and accepts 50', () => {
    expectRefused({ metadata: keys(51) }, 'parameter_invalid', 'metadata');
    expect(Object.keys(build({ metadata: keys(50) }).metadata)).toHaveLength(50);
  });

  it('refuses a 41-character key and accepts a 40-character one', () => {
    const long = 'k'.repeat(41);
    expectRefused({ metadata: { [long]: 'v' } }, 'parameter_invalid', `metadata[${long}]`);
    const ok = 'k'.repeat(40);
    expect(build({ metadata: { [ok]: 'v' } }).metadata).toEqual({ [ok]: 'v' });
  });

  it('refuses an empty key', () => {
    expectRefused({ metadata: { '': 'v' } }, 'parameter_invalid', 'metadata[]');
  });

  it('refuses a 501-character value and accepts a 500-character one', () => {
    expectRefused({ metadata: { note: 'v'.repeat(501) } }, 'parameter_invalid', 'metadata[note]');
    expect(build({ metadata: { note: 'v'.repeat(500) } }).metadata.note).toHaveLength(500);
  });

  it('defaults to empty metadata', () => {
    expect(build().metadata).toEqual({});
  });
});

describe('buildCheckoutSession: expires_at', () => {
  it.each([
    ['29 minutes', 29 * MINUTE],
    ['30 minutes less 1 ms', 30 * MINUTE - 1],
    ['25 hours', 25 * HOUR],
    ['24 hours and 1 ms', 24 * HOUR + 1],
    ['in the past', -HOUR],
  ])('refuses %s from now', (_, offset) => {
    expectRefused({ expiresAt: new Date(now.getTime() + offset) }, 'parameter_invalid', 'expires_at');
  });

  it.each([
    ['30 minutes', 30 * MINUTE],
    ['2 hours', 2 * HOUR],
    ['24 hours', 24 * HOUR],
  ])('accepts %s from now', (_, offset) => {
    const expiresAt = new Date(now.getTime() + offset);
    expect(build({ expiresAt }).expiresAt.getTime()).toBe(expiresAt.getTime());
  });

  it('defaults to 24 hours from now', () => {
    expect(build().expiresAt.getTime()).toBe(now.getTime() + 24 * HOUR);
    expect(build({ expiresAt: null }).expiresAt.getTime()).toBe(now.getTime() + 24 * HOUR);
  });

  it('refuses an Invalid Date expiry (e.g. an out-of-range Unix time) with param expires_at', () => {
    expectRefused({ expiresAt: new Date(Number.NaN) }, 'parameter_invalid', 'expires_at');
  });
});

describe('buildCheckoutSession: the session it builds', () => {
  it('is open, in the caller scope, with the defaults a merchant expects', () => {
    const session = build();
    expect(session.id).toMatch(/^cs_[0-9A-Za-z]{24}$/);
    expect(session.accountId).toBe('acct_test_1');
    expect(session.mode).toBe('test');
    expect(session.status).toBe('open');
    expect(session.captureMethod).toBe('automatic');
    expect(session.paymentMethodTypes).toEqual(['card', 'google_pay']);
    expect(session.customerEmail).toBeNull();
    expect(session.locale).toBe('auto');
    expect(session.clientReferenceId).toBeNull();
    expect(session.paymentLinkId).toBeNull();
    expect(session.completedAt).toBeNull();
    expect(session.paymentId).toBeNull();
    expect(session.createdAt.getTime()).toBe(now.getTime());
    expect(session.updatedAt.getTime()).toBe(now.getTime());
  });

  it('computes each line amount and the subtotal as Σ unit_amount × quantity', () => {
    const session = build({
      lineItems: [
        { name: 'shirt', unitAmount: 2500, quantity: 3 },
        { name: 'socks', unitAmount: 799, quantity: 2 },
        { name: 'sticker', unitAmount: 0, quantity: 10 },
      ],
    });
    expect(session.lineItems.map((i) => i.amount)).toEqual([7500, 1598, 0]);
    expect(session.amountSubtotal).toBe(9098);
    expect(session.amountTotal).toBe(9098);
  });

  it('trims item names', () => {
    expect(build({ lineItems: [{ name: '  Mug  ', unitAmount: 900, quantity: 1 }] }).lineItems[0]!.name).toBe('Mug');
  });

  it('keeps what the merchant chose', () => {
    const session = build({
      captureMethod: 'manual',
      paymentMethodTypes: ['card'],
      customerEmail: 'ada@example.com',
      locale: 'fr',
      clientReferenceId: 'order-42',
      metadata: { order: '42' },
      paymentLinkId: 'plink_1',
    });
    expect(session.captureMethod).toBe('manual');
    expect(session.paymentMethodTypes).toEqual(['card']);
    expect(session.customerEmail).toBe('ada@example.com');
    expect(session.locale).toBe('fr');
    expect(session.clientReferenceId).toBe('order-42');
    expect(session.metadata).toEqual({ order: '42' });
    expect(session.paymentLinkId).toBe('plink_1');
  });

  it('removes duplicate payment method types and refuses an empty list', () => {
    expect(build({ paymentMethodTypes: ['google_pay', 'card', 'google_pay'] }).paymentMethodTypes).toEqual(['google_pay', 'card']);
    expectRefused({ paymentMethodTypes: [] }, 'parameter_invalid', 'payment_method_types');
  });

  it('gives every session a different id', () => {
    const ids = new Set(Array.from({ length: 200 }, () => build().id));
    expect(ids.size).toBe(200);
  });
});

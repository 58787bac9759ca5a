import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../team/entities';
import type { Payment } from '../entities';
import type { CheckoutSession } from '../../sessions/entities';
import { composeReceipt } from './compose-receipt';
import { SUPPORTED_LOCALES } from '../../shared/locale';
import { RECEIPT_LOCALES, receiptMessages, type ReceiptMessages } from './receipt-messages';

const account: Account = {
  id: 'acct_1',
  name: 'Beans Ltd',
  defaultCurrency: 'usd',
  branding: { displayName: null, logoUrl: null, accentColor: null },
  supportEmail: null,
  sendReceipts: true,
  embedAllowedOrigins: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
};

function payment(overrides: Partial<Payment>): Payment {
  return {
    id: 'pay_1',
    accountId: 'acct_1',
    mode: 'live',
    checkoutSessionId: null,
    amount: 1500,
    currency: 'usd',
    status: 'succeeded',
    captureMethod: 'automatic',
    amountCaptured: 1500,
    amountRefunded: 0,
    customerId: null,
    customerEmail: 'a@example.com',
    paymentMethod: { type: 'card', brand: 'american-express', last4: '0005', expMonth: 12, expYear: 2030, fingerprint: 'fp' },
    processor: 'test',
    processorTransactionId: 'tx',
    processorResponse: null,
    failureCode: null,
    declineCode: null,
    threeDSecure: null,
    totalDetails: null,
    shippingDetails: null,
    billingAddress: null,
    customFields: [],
    createdAt: new Date('2026-03-04T10:00:00Z'),
    updatedAt: new Date('2026-03-04T10:00:00Z'),
    ...overrides,
  };
}

describe('composeReceipt', () => {
  it('names each tax by its rate: a tax in the prices (VAT-inclusive) is said as included, one on top as itself', () => {
    const vat = { id: 'txr_vat', displayName: 'VAT', percentage: 20, inclusive: true };
    const salesTax = { id: 'txr_st', displayName: 'Sales tax', percentage: 10, inclusive: false };
    const session = {
      currency: 'eur',
      lineItems: [
        { name: 'Espresso beans', unitAmount: 1200, quantity: 1, amount: 1200, taxRates: [vat] },
        { name: 'Grinder brush', unitAmount: 1000, quantity: 1, amount: 1000, taxRates: [salesTax] },
      ],
      discounts: [],
      shippingOptions: [],
      shippingRateId: null,
      shippingDetails: null,
      billingAddress: null,
      shippingAddressCollection: null,
      amountSubtotal: 2200,
      totalDetails: { amountDiscount: 0, amountShipping: 0, amountTax: 300 },
    } as unknown as CheckoutSession;
    const { text } = composeReceipt({
      account,
      session,
      payment: payment({ currency: 'eur', amount: 2300, amountCaptured: 2300 }),
      to: 'a@example.com',
      locale: 'en',
    });
    expect(text).toContain('Includes VAT: €2.00');
    expect(text).toContain('Sales tax: €1.00');
    expect(text).not.toMatch(/^Tax:/m);
    expect(text).toContain('Total paid: €23.00');
    expect(
      composeReceipt({ account, session, payment: payment({ currency: 'eur', amount: 2300, amountCaptured: 2300 }), to: 'a@example.com', locale: 'de' }).text,
    ).toContain('Enthält VAT: 2,00');
  });

  it('shows where the order ships: the name and address the shopper gave, and the shipping method chosen', () => {
    const session = {
      currency: 'usd',
      lineItems: [{ name: 'Kettle', unitAmount: 4000, quantity: 1, amount: 4000 }],
      discounts: [],
      shippingOptions: [{ id: 'shr_1', displayName: 'Express', amount: 1500, deliveryEstimate: null }],
      shippingRateId: 'shr_1',
      shippingDetails: null,
      billingAddress: null,
      shippingAddressCollection: { allowedCountries: ['US'] },
      amountSubtotal: 4000,
      totalDetails: { amountDiscount: 0, amountShipping: 1500, amountTax: 0 },
    } as unknown as CheckoutSession;
    const shipped = payment({
      amount: 5500,
      amountCaptured: 5500,
      shippingDetails: { name: 'Ada Byron', address: { line1: '1 Main St', line2: 'Apt 4', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' } },
    });
    const { text } = composeReceipt({ account, session, payment: shipped, to: 'a@example.com', locale: 'en' });
    expect(text).toContain('Shipping (Express): $15.00');
    expect(text).toContain('Shipping to:\n  Ada Byron\n  1 Main St\n  Apt 4\n  78701 Austin TX\n  US\n');
    expect(composeReceipt({ account, session, payment: shipped, to: 'a@example.com', locale: 'fr' }).text).toContain('Livraison à:\n  Ada Byron');
    expect(composeReceipt({ account, session: null, payment: payment({}), to: 'a@example.com', locale: 'en' }).text).not.toContain('Shipping to');
  });

  it('formats a 0-decimal and a 3-decimal currency with their own minor units', () => {
    expect(
      composeReceipt({ account, session: null, payment: payment({ currency: 'jpy', amount: 1500, amountCaptured: 1500 }), to: 'a@example.com', locale: 'ja' })
        .text,
    ).toContain('お支払い合計: ￥1,500');
    expect(
      composeReceipt({ account, session: null, payment: payment({ currency: 'kwd', amount: 1500, amountCaptured: 1500 }), to: 'a@example.com', locale: 'en' })
        .text,
    ).toContain('Total paid: KWD\u00a01.500');
  });

  it('names the card by brand and last 4 digits only; no support line without a support email; no test line in live mode', () => {
    const { text, subject } = composeReceipt({ account, session: null, payment: payment({}), to: 'a@example.com', locale: 'en' });
    expect(subject).toBe('Your receipt from Beans Ltd');
    expect(text).toContain('Paid with American Express ending in 0005');
    expect(text).not.toContain('Questions');
    expect(text).not.toContain('Test mode');
    expect(text).toContain('Date: March 4, 2026');
  });

  it('shows the refunded amount of a refunded payment', () => {
    expect(composeReceipt({ account, session: null, payment: payment({ amountRefunded: 500 }), to: 'a@example.com', locale: 'en' }).text).toContain(
      'Refunded: $5.00',
    );
  });

  it('falls back to English for a locale the checkout page does not have, and matches regional tags', () => {
    expect(receiptMessages('sw').locale).toBe('en');
    expect(receiptMessages('fi').locale).toBe('fi');
    expect(receiptMessages('de-CH').locale).toBe('de');
    expect(receiptMessages('pt').locale).toBe('pt-BR');
    expect(receiptMessages('en-XA').locale).toBe('en');
  });
});

describe('receipt words for every checkout page locale', () => {
  const pageLocales = readdirSync(fileURLToPath(new URL('../../../../web/checkout/i18n/locales', import.meta.url)))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
  const english = receiptMessages('en').messages;
  const placeholders = (text: string) => (text.match(/\{[a-z0-9]+\}/gi) ?? []).sort();

  it('covers the 44 locales of the checkout page, and only those', () => {
    expect(pageLocales).toHaveLength(44);
    expect([...SUPPORTED_LOCALES].sort()).toEqual(pageLocales);
    expect([...RECEIPT_LOCALES].sort()).toEqual(pageLocales);
  });

  it.each(pageLocales)('%s has its own receipt words, keeping every placeholder of the English text', (locale) => {
    const { locale: used, messages } = receiptMessages(locale);
    expect(used).toBe(locale);
    for (const key of Object.keys(english) as (keyof ReceiptMessages)[]) {
      expect(messages[key].trim(), `${locale}.${key}`).not.toBe('');
      expect(placeholders(messages[key]), `${locale}.${key}`).toEqual(placeholders(english[key]));
      if (locale !== 'en' && placeholders(english[key]).length > 0) expect(messages[key], `${locale}.${key}`).not.toBe(english[key]);
    }
  });
});

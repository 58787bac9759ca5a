import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../team/entities';
import type { Payment } from '../entities';
import { blankPayment } from '../rules';
import type { CheckoutSession } from '../../sessions/entities';
import { composeReceipt } from './compose-receipt';
import { SUPPORTED_LOCALES } from '../../shared/locale';
import english from './locales/en.json';
import { loadReceiptMessages, type ReceiptMessageKey } from './receipt-messages';

const account: Account = {
  id: 'acct_1',
  name: 'Beans Ltd',
  defaultCurrency: 'usd',
  branding: { displayName: null, logoUrl: null, accentColor: null },
  supportEmail: null,
  sendReceipts: true,
  subscriptionFailureAction: 'cancel',
  embedAllowedOrigins: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
};

function payment(overrides: Partial<Payment>): Payment {
  return {
    ...blankPayment,
    id: 'pay_1',
    accountId: 'acct_1',
    mode: 'live',
    amount: 1500,
    currency: 'usd',
    status: 'succeeded',
    captureMethod: 'automatic',
    amountCaptured: 1500,
    amountRefunded: 0,
    customerEmail: 'a@example.com',
    paymentMethod: { type: 'card', brand: 'american-express', last4: '0005', expMonth: 12, expYear: 2030, fingerprint: 'fp' },
    processor: 'test',
    processorTransactionId: 'tx',
    customFields: [],
    createdAt: new Date('2026-03-04T10:00:00Z'),
    updatedAt: new Date('2026-03-04T10:00:00Z'),
    ...overrides,
  };
}

describe('composeReceipt', () => {
  it('names each tax by its rate: a tax in the prices (VAT-inclusive) is said as included, one on top as itself', async () => {
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
    const { text } = await composeReceipt({
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
      (await composeReceipt({ account, session, payment: payment({ currency: 'eur', amount: 2300, amountCaptured: 2300 }), to: 'a@example.com', locale: 'de' }))
        .text,
    ).toContain('Enthält VAT: 2,00');
  });

  it('shows where the order ships: the name and address the shopper gave, and the shipping method chosen', async () => {
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
    const { text } = await composeReceipt({ account, session, payment: shipped, to: 'a@example.com', locale: 'en' });
    expect(text).toContain('Shipping (Express): $15.00');
    expect(text).toContain('Shipping to:\n  Ada Byron\n  1 Main St\n  Apt 4\n  78701 Austin TX\n  US\n');
    expect((await composeReceipt({ account, session, payment: shipped, to: 'a@example.com', locale: 'fr' })).text).toContain('Livraison à:\n  Ada Byron');
    expect((await composeReceipt({ account, session: null, payment: payment({}), to: 'a@example.com', locale: 'en' })).text).not.toContain('Shipping to');
  });

  it('formats a 0-decimal and a 3-decimal currency with their own minor units', async () => {
    expect(
      (
        await composeReceipt({
          account,
          session: null,
          payment: payment({ currency: 'jpy', amount: 1500, amountCaptured: 1500 }),
          to: 'a@example.com',
          locale: 'ja',
        })
      ).text,
    ).toContain('お支払い合計: ￥1,500');
    expect(
      (
        await composeReceipt({
          account,
          session: null,
          payment: payment({ currency: 'kwd', amount: 1500, amountCaptured: 1500 }),
          to: 'a@example.com',
          locale: 'en',
        })
      ).text,
    ).toContain('Total paid: KWD\u00a01.500');
  });

  it('names the card by brand and last 4 digits only; no support line without a support email; no test line in live mode', async () => {
    const { text, subject } = await composeReceipt({ account, session: null, payment: payment({}), to: 'a@example.com', locale: 'en' });
    expect(subject).toBe('Your receipt from Beans Ltd');
    expect(text).toContain('Paid with American Express ending in 0005');
    expect(text).not.toContain('Questions');
    expect(text).not.toContain('Test mode');
    expect(text).toContain('Date: March 4, 2026');
  });

  it('names a local payment method by its own name, and never the bank account', async () => {
    const ideal = payment({
      paymentMethod: {
        type: 'ideal',
        brand: null,
        last4: null,
        expMonth: null,
        expYear: null,
        fingerprint: null,
        bank: { name: 'ing', bic: 'INGBNL2A', ibanLast4: '5264' },
      },
    });
    const { text } = await composeReceipt({ account, session: null, payment: ideal, to: 'a@example.com', locale: 'en' });
    expect(text).toContain('Paid with iDEAL');
    expect(text).not.toContain('5264');
  });

  it('shows the refunded amount of a refunded payment', async () => {
    expect((await composeReceipt({ account, session: null, payment: payment({ amountRefunded: 500 }), to: 'a@example.com', locale: 'en' })).text).toContain(
      'Refunded: $5.00',
    );
  });

  it('falls back to English for a locale the checkout page does not have, and matches regional tags', async () => {
    expect((await loadReceiptMessages('sw')).locale).toBe('en');
    expect((await loadReceiptMessages('fi')).locale).toBe('fi');
    expect((await loadReceiptMessages('de-CH')).locale).toBe('de');
    expect((await loadReceiptMessages('pt')).locale).toBe('pt-BR');
    expect((await loadReceiptMessages('en-XA')).locale).toBe('en');
  });
});

describe("a whole receipt in the shopper's language", () => {
  const shop: Account = { ...account, branding: { ...account.branding, displayName: 'Kaffee & Co' }, supportEmail: 'help@kaffee.example' };
  const order = (currency: string, amounts: { item: number; subtotal: number; discount: number; shipping: number; tax: number; total: number }) => ({
    session: {
      currency,
      lineItems: [{ name: 'Espresso beans', unitAmount: amounts.item, quantity: 2, amount: amounts.subtotal }],
      discounts: [],
      shippingOptions: [{ id: 'shr_1', displayName: 'Express', amount: amounts.shipping, deliveryEstimate: null }],
      shippingRateId: 'shr_1',
      shippingDetails: null,
      billingAddress: null,
      shippingAddressCollection: null,
      amountSubtotal: amounts.subtotal,
      totalDetails: { amountDiscount: amounts.discount, amountShipping: amounts.shipping, amountTax: amounts.tax },
    } as unknown as CheckoutSession,
    payment: payment({
      mode: 'test',
      currency,
      amount: amounts.total,
      amountCaptured: amounts.total,
      amountRefunded: amounts.discount,
      paymentMethod: { type: 'card', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, fingerprint: 'fp' },
      shippingDetails: { name: 'Ada Byron', address: { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' } },
    }),
  });

  it('in German: every line in German words, amounts and the date as German writes them', async () => {
    const { session, payment: paid } = order('eur', { item: 1200, subtotal: 2400, discount: 200, shipping: 500, tax: 100, total: 2800 });
    const receipt = await composeReceipt({ account: shop, session, payment: paid, to: 'a@example.com', locale: 'de-AT' });
    expect(receipt.locale).toBe('de');
    expect(receipt.subject).toBe('Ihre Quittung von Kaffee & Co');
    expect(receipt.text).toBe(
      [
        'Vielen Dank für Ihre Zahlung an Kaffee & Co.',
        '',
        'Belegnummer: pay_1',
        'Datum: 4. März 2026',
        '',
        'Artikel:',
        '  Espresso beans × 2  24,00\u00a0€',
        '',
        'Zwischensumme: 24,00\u00a0€',
        'Rabatt: −2,00\u00a0€',
        'Versand (Express): 5,00\u00a0€',
        'Steuer: 1,00\u00a0€',
        'Bezahlt: 28,00\u00a0€',
        'Erstattet: 2,00\u00a0€',
        '',
        'Versand an:',
        '  Ada Byron',
        '  1 Main St',
        '  78701 Austin TX',
        '  US',
        '',
        'Bezahlt mit Visa mit Endziffern 4242',
        '',
        'Fragen zu dieser Bestellung? Wenden Sie sich an Kaffee & Co unter help@kaffee.example.',
        '',
        'Testmodus: Es wurde kein echtes Geld bewegt.',
        '',
      ].join('\n'),
    );
  });

  it('in Japanese: every line in Japanese words, yen without decimals, the date as Japanese writes it', async () => {
    const { session, payment: paid } = order('jpy', { item: 1200, subtotal: 2400, discount: 200, shipping: 500, tax: 100, total: 2800 });
    const receipt = await composeReceipt({ account: shop, session, payment: paid, to: 'a@example.com', locale: 'ja' });
    expect(receipt.locale).toBe('ja');
    expect(receipt.subject).toBe('Kaffee & Co からの領収書');
    expect(receipt.text).toBe(
      [
        'Kaffee & Co へのお支払いありがとうございます。',
        '',
        '領収書番号: pay_1',
        '日付: 2026年3月4日',
        '',
        '商品:',
        '  Espresso beans × 2  ￥2,400',
        '',
        '小計: ￥2,400',
        '割引: −￥200',
        '配送料 (Express): ￥500',
        '税: ￥100',
        'お支払い合計: ￥2,800',
        '返金済み: ￥200',
        '',
        'お届け先:',
        '  Ada Byron',
        '  1 Main St',
        '  78701 Austin TX',
        '  US',
        '',
        'Visa（末尾 4242）でお支払い',
        '',
        'ご注文についてのお問い合わせは Kaffee & Co（help@kaffee.example）までご連絡ください。',
        '',
        'テストモード：実際のお金は動いていません。',
        '',
      ].join('\n'),
    );
  });

  it('a method without a card number is named; a tax already in the prices is said as included', async () => {
    const vat = { id: 'txr_vat', displayName: 'MwSt.', percentage: 19, inclusive: true };
    const session = {
      ...order('eur', { item: 1190, subtotal: 1190, discount: 0, shipping: 0, tax: 190, total: 1190 }).session,
      lineItems: [{ name: 'Espresso beans', unitAmount: 1190, quantity: 1, amount: 1190, taxRates: [vat] }],
      shippingOptions: [],
      shippingRateId: null,
    } as unknown as CheckoutSession;
    const paid = payment({ currency: 'eur', amount: 1190, amountCaptured: 1190, paymentMethod: { type: 'google_pay' } as Payment['paymentMethod'] });
    const { text } = await composeReceipt({ account: shop, session, payment: paid, to: 'a@example.com', locale: 'de' });
    expect(text).toContain('Enthält MwSt.: 1,90\u00a0€\nBezahlt: 11,90\u00a0€\n');
    expect(text).toContain('\nBezahlt mit Google Pay\n');
  });
});

describe('receipt words for every checkout page locale', () => {
  const localesIn = (folder: URL) =>
    readdirSync(fileURLToPath(folder))
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .sort();
  const pageLocales = localesIn(new URL('../../../../web/checkout/i18n/locales', import.meta.url));
  const keys = Object.keys(english) as ReceiptMessageKey[];
  const withArguments = keys.filter((key) => english[key].includes('{'));

  it('covers the 44 locales of the checkout page, and only those', () => {
    expect(pageLocales).toHaveLength(44);
    expect([...SUPPORTED_LOCALES].sort()).toEqual(pageLocales);
    expect(localesIn(new URL('./locales', import.meta.url))).toEqual(pageLocales);
  });

  // Every key and argument of English, in valid ICU, is checked with the page's catalogues (web/checkout/i18n/catalogues.test.ts).
  it.each(pageLocales)('%s has its own receipt words, not English ones', async (locale) => {
    const t = await loadReceiptMessages(locale);
    expect(t.locale).toBe(locale);
    const values = { merchant: 'M', tax: 'T', brand: 'B', last4: '1234', method: 'P', email: 'e@example.com', amount: '$1.00', date: 'D', url: 'U' };
    const en = await loadReceiptMessages('en');
    for (const key of keys) expect(t(key, values).trim(), `${locale}.${key}`).not.toBe('');
    if (locale !== 'en') for (const key of withArguments) expect(t(key, values), `${locale}.${key}`).not.toBe(en(key, values));
  });
});

import { describe, expect, it } from 'vitest';
import { blankOf } from '../shared/resource-shape';
import type { Account } from '../team/entities';
import { invoices, type Invoice } from './entities';
import { composePaymentFailedEmail, emailLocale } from './payment-failed-email';

const shop: Account = {
  id: 'acct_1',
  name: 'Beans Ltd',
  defaultCurrency: 'usd',
  branding: { displayName: 'Beans & Co', logoUrl: null, accentColor: null },
  supportEmail: 'help@beans.example',
  sendReceipts: false,
  subscriptionFailureAction: 'cancel',
  embedAllowedOrigins: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
};

function invoice(overrides: Partial<Invoice>): Invoice {
  const at = new Date('2027-01-04T09:00:00Z');
  return {
    ...blankOf(invoices),
    id: 'in_1',
    accountId: 'acct_1',
    mode: 'live',
    customerId: 'cus_1',
    subscriptionId: 'sub_1',
    status: 'open',
    billingReason: 'subscription_cycle',
    currency: 'usd',
    lines: [],
    subtotal: 1500,
    totalDiscountAmounts: [],
    tax: 0,
    totalTaxAmounts: [],
    total: 1500,
    amountDue: 1500,
    amountPaid: 0,
    periodStart: at,
    periodEnd: new Date('2027-02-04T09:00:00Z'),
    attemptCount: 1,
    nextPaymentAttempt: new Date('2027-01-05T09:00:00Z'),
    hostedToken: 'ih_1',
    createdAt: at,
    finalizedAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const payUrl = 'https://pay.example/i/ih_1';

describe('composePaymentFailedEmail', () => {
  it('says what failed, to whom, when it is tried again, where to pay, and whom to ask', async () => {
    const email = await composePaymentFailedEmail({ account: shop, invoice: invoice({}), to: 'ada@example.com', locale: 'en', payUrl });
    expect(email).toEqual({
      to: 'ada@example.com',
      subject: 'Your payment to Beans & Co failed',
      locale: 'en',
      text: [
        'Your payment of $15.00 to Beans & Co failed.',
        '',
        'Invoice number: in_1',
        '',
        'We will try again on January 5, 2027.',
        '',
        'Pay it now, or with another card: https://pay.example/i/ih_1',
        '',
        'Questions about this order? Contact Beans & Co at help@beans.example.',
        '',
      ].join('\n'),
    });
  });

  it("after the last try says so; amounts in the currency's own decimals and the locale's format; test mode says so", async () => {
    const last = invoice({ status: 'uncollectible', nextPaymentAttempt: null, currency: 'jpy', amountDue: 1200, mode: 'test' });
    const { text, subject } = await composePaymentFailedEmail({
      account: { ...shop, supportEmail: null },
      invoice: last,
      to: 'a@example.com',
      locale: 'fr',
      payUrl,
    });
    expect(subject).toBe('Votre paiement à Beans & Co a échoué');
    expect(text).toContain(`Votre paiement de ${new Intl.NumberFormat('fr', { style: 'currency', currency: 'JPY' }).format(1200)} à Beans & Co a échoué.`);
    expect(text).toContain('C’était la dernière tentative : le paiement ne sera plus retenté.');
    expect(text).not.toContain('réessaierons');
    expect(text).toContain('Mode test');
    expect(text).not.toContain('help@');
  });
});

describe('emailLocale', () => {
  it('is the first preferred language Tillpoint has words for, else English', () => {
    expect(emailLocale(['gsw', 'de-CH', 'fr'])).toBe('de');
    expect(emailLocale(['pt'])).toBe('pt-BR');
    expect(emailLocale(['tlh'])).toBe('en');
    expect(emailLocale([])).toBe('en');
  });
});

import { describe, expect, it } from 'vitest';
import type { Account } from '../../team/entities';
import type { Payment } from '../entities';
import { composeReceipt } from './compose-receipt';
import { receiptMessages } from './receipt-messages';

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
    customFields: [],
    createdAt: new Date('2026-03-04T10:00:00Z'),
    updatedAt: new Date('2026-03-04T10:00:00Z'),
    ...overrides,
  };
}

describe('composeReceipt', () => {
  it('formats a 0-decimal and a 3-decimal currency with their own minor units', () => {
    expect(composeReceipt({ account, session: null, payment: payment({ currency: 'jpy', amount: 1500, amountCaptured: 1500 }), to: 'a@example.com', locale: 'ja' }).text).toContain(
      'お支払い合計: ￥1,500',
    );
    expect(composeReceipt({ account, session: null, payment: payment({ currency: 'kwd', amount: 1500, amountCaptured: 1500 }), to: 'a@example.com', locale: 'en' }).text).toContain(
      'Total paid: KWD\u00a01.500',
    );
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
    expect(composeReceipt({ account, session: null, payment: payment({ amountRefunded: 500 }), to: 'a@example.com', locale: 'en' }).text).toContain('Refunded: $5.00');
  });

  it('falls back to English for a locale without receipt words, and matches regional tags', () => {
    expect(receiptMessages('fi').locale).toBe('en');
    expect(receiptMessages('de-CH').locale).toBe('de');
    expect(receiptMessages('pt').locale).toBe('pt-BR');
    expect(receiptMessages('en-XA').locale).toBe('en');
  });
});

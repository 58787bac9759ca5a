// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicSession } from '../api';
import { loadMessages, translator } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import BankDebitArea, { type BankDebitAreaProps } from './BankDebitArea';
import { mandateMessageKey } from './bank-debit';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const session = {
  id: 'cs_bank_debit',
  status: 'open',
  livemode: false,
  merchant: { name: 'Test Shop', logo_url: null, accent_color: null },
  currency: 'USD',
  locale: 'en',
  line_items: [],
  amount_total: 1800,
  customer_email: null,
  mode: 'payment',
  save_payment_method: null,
} as unknown as PublicSession;

// The test processor's client: no braintree-web, so the form tokenizes through the test endpoint.
const client = { engine: null, unavailable: false, googlePaySetup: null, googlePay: null } as unknown as ProcessorClient;
const form = {
  processing: false,
  busy: { current: false },
  setNotice: () => {},
  payWithWallet: async () => undefined,
  email: 'shopper@example.com',
  emailRef: { current: null },
  touchEmail: () => {},
} as unknown as BankDebitAreaProps['form'];

afterEach(() => {
  document.body.innerHTML = '';
});

async function mandateShown(save: PublicSession['save_payment_method']): Promise<string> {
  const t = translator(await loadMessages('en'));
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () =>
    root.render(<BankDebitArea session={{ ...session, save_payment_method: save }} client={client} t={t} form={form} onAbsent={() => {}} />),
  );
  const text = container.querySelector('[data-testid="bank-debit-mandate"]')?.textContent ?? '';
  await act(async () => root.unmount());
  return text;
}

/** The mandate the bank debit form shows, and tokenizes with: a standing authorization when the session saves the account. */
describe('the bank debit mandate', () => {
  it('authorizes later debits too when the session saves the payment method', async () => {
    const text = await mandateShown('on');
    expect(text).toBe(
      "By clicking the button below, you authorize Test Shop to debit the bank account above for $18.00 now and for later payments you agree to with Test Shop, such as a subscription's renewals, until you tell Test Shop to stop, and to credit it if an error needs correcting.",
    );
  });

  it('authorizes the one debit when the session does not save it', async () => {
    const text = await mandateShown(null);
    expect(text).toBe(
      'By clicking the button below, you authorize Test Shop to debit the bank account above for $18.00, and to credit it if an error needs correcting.',
    );
    expect(text).not.toContain('later payments');
  });

  it('picks the standing authorization for `on` only: `shopper_choice` does not save a bank account', () => {
    expect(mandateMessageKey('on')).toBe('bankDebit.mandateSaved');
    expect(mandateMessageKey('shopper_choice')).toBe('bankDebit.mandate');
    expect(mandateMessageKey(null)).toBe('bankDebit.mandate');
  });
});

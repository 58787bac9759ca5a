// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicSession } from '../api';
import { loadMessages, translator } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import { openSession } from '../test-session';
import BankDebitArea, { type BankDebitAreaProps } from './BankDebitArea';
import { mandateMessageKey } from './bank-debit';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const session = openSession('cs_bank_debit', { save_payment_method: null });

const standing =
  "By clicking the button below, you authorize Test Shop to debit the bank account above for $18.00 now and for later payments you agree to with Test Shop, such as a subscription's renewals, until you tell Test Shop to stop, and to credit it if an error needs correcting.";
const oneDebit =
  'By clicking the button below, you authorize Test Shop to debit the bank account above for $18.00, and to credit it if an error needs correcting.';

// The test processor's client: no braintree-web, so the form tokenizes through the test endpoint.
const client = { engine: null, unavailable: false, googlePaySetup: null, googlePay: null } as unknown as ProcessorClient;

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** Types into a controlled input as a shopper would (React listens for `input`). */
function type(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Renders the form for a session, fills it in and pays: the mandate shown, and the one the tokenization sent. */
async function mandateOf(save: PublicSession['save_payment_method']): Promise<{ shown: string; sent: unknown }> {
  const bodies: Array<Record<string, unknown>> = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
    return new Response(JSON.stringify({ nonce: 'tok_bank', last4: '6789', bank_name: 'Test Bank' }), { status: 200 });
  });
  const paid: string[] = [];
  const form = {
    processing: false,
    busy: { current: false },
    setNotice: () => {},
    payWithWallet: async (method: string) => {
      paid.push(method);
      return undefined;
    },
    email: 'shopper@example.com',
    emailRef: { current: null },
    touchEmail: () => {},
  } as unknown as BankDebitAreaProps['form'];
  const t = translator(await loadMessages('en'));
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () =>
    root.render(<BankDebitArea session={{ ...session, save_payment_method: save }} client={client} t={t} form={form} onAbsent={() => {}} />),
  );
  const shown = container.querySelector('[data-testid="bank-debit-mandate"]')?.textContent ?? '';
  const [holder, routing, account] = [...container.querySelectorAll<HTMLInputElement>('input.field-input')];
  await act(async () => {
    type(holder!, 'Jane Doe');
    type(routing!, '011000015');
    type(account!, '000123456789');
  });
  await act(async () => container.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click());
  await act(async () => container.querySelector<HTMLButtonElement>('[data-testid="bank-debit-pay"]')!.click());
  expect(container.querySelector('[data-testid="bank-debit-notice"]')?.textContent).toBe('');
  expect(paid).toEqual(['us_bank_account']);
  await act(async () => root.unmount());
  return { shown, sent: bodies[0]?.mandate_text };
}

/** The mandate the bank debit form shows and tokenizes with: a standing authorization when the session saves the account. */
describe('the bank debit mandate', () => {
  it('authorizes later debits too when the session saves the payment method, in the words shown and sent', async () => {
    expect(await mandateOf('on')).toEqual({ shown: standing, sent: standing });
  });

  it('authorizes the one debit when the session does not save it', async () => {
    expect(await mandateOf(null)).toEqual({ shown: oneDebit, sent: oneDebit });
  });

  it('picks the standing authorization for `on` only: `shopper_choice` does not save a bank account', () => {
    expect(mandateMessageKey('on')).toBe('bankDebit.mandateSaved');
    expect(mandateMessageKey('shopper_choice')).toBe('bankDebit.mandate');
    expect(mandateMessageKey(null)).toBe('bankDebit.mandate');
  });
});

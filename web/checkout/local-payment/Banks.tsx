import { useEffect, useState } from 'react';
import { localPaymentCountry, localPaymentMethods } from '../../../src/domain/payments/local-payment-methods';
import { isLocalPaymentMethod, type LocalPaymentMethodType } from '../../../src/domain/payments/payment-method-types';
import { toDecimalString } from '../../../src/domain/shared/money';
import type { PublicSession } from '../api';
import { cjs } from '../braintree/module-exports';
import type { Translate } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import type { BraintreeClientConfig } from '../processor-plan';
import { reportCheckoutFailure } from '../report';
import { payAtBank } from './pay-at-bank';
import type { usePaymentAttempt } from '../use-payment-attempt';
import { useLatest } from '../use-latest';
import {
  braintreeLocalPayment,
  methodMarks,
  testLocalPayment,
  type LocalPaymentInstance,
  type LocalPaymentProvider,
  type TestBankAnswer,
} from './local-payment';

// The buttons' styles, in the browser only: the server renders this module too (see ApprovalWalletArea.tsx).
if (typeof document !== 'undefined') void import('./local-payment.css');

export interface LocalPaymentAreaProps {
  session: PublicSession;
  /** The processor client, once it is up: Braintree's (the local-payment component on its client) or the test processor's. */
  client: ProcessorClient | null;
  t: Translate;
  /** No button can show here (braintree-web could not set up local payments: PayPal not linked). */
  onAbsent: () => void;
  form: Pick<ReturnType<typeof usePaymentAttempt>, 'email' | 'setNotice' | 'emailRef' | 'noticeRef' | 'touchEmail' | 'busy' | 'made'>;
}

/**
 * The bank's window on this page: braintree-web's local-payment on the Braintree client (the session
 * currency's merchant account), or the test window in test mode.
 */
export async function localPaymentProvider(
  client: Pick<ProcessorClient, 'braintreeClient'>,
  session: PublicSession,
  t: Translate,
): Promise<LocalPaymentProvider> {
  if (!client.braintreeClient) {
    // The test window comes with the first tap (the 3-D Secure test challenge and PayPal's share it).
    return testLocalPayment(async (order) =>
      (await import('../test-dialog')).testDialog<TestBankAnswer>(t, t('walletTest.title', { wallet: localPaymentMethods[order.method].name }), [
        { label: t('walletTest.approve'), value: 'approve' },
        { label: t('walletTest.fail'), value: 'fail' },
        { label: t('walletTest.cancel'), value: null },
      ]),
    );
  }
  const merchantAccountId = (session.processor as unknown as BraintreeClientConfig).merchantAccountId;
  const instance = (await cjs(await import('braintree-web/local-payment')).create({
    client: await client.braintreeClient,
    ...(merchantAccountId ? { merchantAccountId } : {}),
  })) as LocalPaymentInstance;
  return braintreeLocalPayment(instance);
}

/** A method's mark, drawn here (no image is fetched): its colour and a short word. */
function Mark({ method }: { method: LocalPaymentMethodType }) {
  const mark = methodMarks[method];
  return (
    <svg className="local-mark" width="32" height="24" viewBox="0 0 32 24" aria-hidden="true" focusable="false">
      <rect width="32" height="24" rx="4" fill={mark.color} />
      <text x="16" y="16" textAnchor="middle" fontSize={mark.text.length > 2 ? 9 : 11} fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
        {mark.text}
      </text>
    </svg>
  );
}

/**
 * The local payment methods' buttons (loaded only when the session offers one): each with its mark
 * and name. A tap records the payment, opens the bank's window, and reports how it ended; an
 * approved payment leaves the page confirming it until the bank's confirmation lands.
 */
export default function LocalPaymentArea({ session, client, t, form, onAbsent }: LocalPaymentAreaProps) {
  // No kill switch of their own: the session's local payment methods, in its order (the plan showed this area only when it has one).
  const methods = session.payment_method_types.filter(isLocalPaymentMethod);
  const [provider, setProvider] = useState<LocalPaymentProvider | null>(null);
  // The method whose bank window failed last, said beside the buttons until the next tap.
  const [failed, setFailed] = useState<LocalPaymentMethodType | null>(null);
  const latest = useLatest({ session, t, onAbsent });

  useEffect(() => {
    if (!client) return;
    let live = true;
    localPaymentProvider(client, latest.current.session, latest.current.t).then(
      (created) => {
        if (live) setProvider(created);
      },
      (error: unknown) => {
        reportCheckoutFailure('local_payment', error);
        if (live) latest.current.onAbsent();
      },
    );
    return () => {
      live = false;
    };
  }, [client, latest]);

  if (!provider) return null;
  const country = (method: LocalPaymentMethodType) =>
    localPaymentCountry(method, session.billing_address?.country) ?? localPaymentMethods[method].countries[0]!;
  const pay = (method: LocalPaymentMethodType) => {
    setFailed(null);
    void payAtBank(
      session.id,
      // The card fields are locked while paying, as the page's order; custom fields are checked only where the session asks some.
      {
        ...form,
        engine: client?.engine ?? null,
        processing: form.made.processing,
        customFields: session.custom_fields?.length ? form.made.customFields : null,
        addresses: form.made.addresses ?? null,
      },
      method,
      (email, begin) =>
        provider.pay(
          {
            method,
            country: country(method),
            amount: toDecimalString(session.amount_total, session.currency),
            currency: session.currency.toUpperCase(),
            email,
            returnUrl: window.location.href,
            returnLabel: t('state.continue'),
          },
          begin,
        ),
      provider.reportsApproval,
      () => setFailed(method),
    );
  };
  return (
    <div className="local-payments" data-testid="local-payments">
      <p className={failed ? 'notice notice-error' : 'notice-empty'} role="alert" data-testid="local-payment-notice">
        {failed ? t('localPayment.failed', { method: localPaymentMethods[failed].name }) : ''}
      </p>
      {methods.map((method) => (
        <button
          key={method}
          type="button"
          className="local-button"
          data-testid={`local-${method}`}
          disabled={form.made.processing[0]}
          aria-busy={form.made.processing[0]}
          onClick={() => pay(method)}
        >
          <Mark method={method} />
          <span>{t('localPayment.button', { method: localPaymentMethods[method].name })}</span>
        </button>
      ))}
    </div>
  );
}

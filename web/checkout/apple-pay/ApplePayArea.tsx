import { useEffect, useMemo, useRef, useState } from 'react';
import type { PublicSession } from '../api';
import type { Translate } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import type { WalletForm } from '../use-payment-attempt';
import { reportCheckoutFailure } from '../report';
import {
  APPLE_PAY_VERSION,
  applePayAvailable,
  applePayPaymentRequest,
  braintreeApplePay,
  testApplePay,
  type ApplePayProvider,
  type ApplePaySessionConstructor,
  type BraintreeApplePayInstance,
} from './apple-pay';
import { cjs } from '../braintree/module-exports';
import { useLatest } from '../use-latest';

// The button's styles, in the browser only, as for the PayPal and Venmo buttons (wallets/ApprovalWalletArea.tsx).
if (typeof document !== 'undefined') void import('./apple-pay.css');

export interface ApplePayAreaProps {
  session: PublicSession;
  /** The processor client, once it is up: Braintree's (apple-pay on its client) or the test processor's. */
  client: ProcessorClient | null;
  t: Translate;
  /** Apple Pay cannot show here (no Apple Pay in this browser, or Braintree's set-up failed). */
  onAbsent: () => void;
  /** The payment form (use-payment-attempt.ts): its state, notice and one attempt. */
  form: WalletForm;
}

/** braintree-web's apple-pay on the Braintree client, or the test processor's Apple Pay. */
export async function applePayProvider(client: Pick<ProcessorClient, 'braintreeClient'>): Promise<ApplePayProvider> {
  if (!client.braintreeClient) return testApplePay();
  const [braintreeClient, component] = await Promise.all([client.braintreeClient, import('braintree-web/apple-pay')]);
  return braintreeApplePay((await cjs(component).create({ client: braintreeClient })) as BraintreeApplePayInstance);
}

/**
 * The Apple Pay button (loaded only when the session offers Apple Pay). Shown only where Apple Pay
 * JS is there and `ApplePaySession.canMakePayments()` says yes; a tap opens Apple's sheet with the
 * order from the session. Canceling the sheet charges nothing and leaves the button as it was.
 */
export default function ApplePayArea({ session, client, t, form, onAbsent }: ApplePayAreaProps) {
  const disabled = form.processing;
  const setNotice = form.setNotice;
  const [ApplePaySession] = useState<ApplePaySessionConstructor | null>(() => applePayAvailable());
  const [ready, setReady] = useState<ApplePayProvider | null>(null);
  const open = useRef(false);
  const base = useMemo(() => applePayPaymentRequest(session, { shipping: t('summary.shipping'), discount: t('summary.discount') }), [session, t]);

  const absent = useLatest(onAbsent);
  useEffect(() => {
    if (!ApplePaySession) return absent.current();
    if (!client) return;
    let live = true;
    applePayProvider(client).then(
      (created) => live && setReady(created),
      (error: unknown) => {
        reportCheckoutFailure('apple_pay', error);
        if (live) absent.current();
      },
    );
    return () => {
      live = false;
    };
  }, [ApplePaySession, client, absent]);

  if (!ApplePaySession || !ready) return null;

  // Apple's sheet must open within the tap: everything here up to begin() is synchronous.
  const start = () => {
    if (disabled || open.current) return;
    setNotice(null);
    let sheet: InstanceType<ApplePaySessionConstructor>;
    try {
      sheet = new ApplePaySession(APPLE_PAY_VERSION, ready.paymentRequest(base));
    } catch (error) {
      reportCheckoutFailure('apple_pay', error);
      return setNotice({ tone: 'error', key: 'applePay.failed' });
    }
    open.current = true;
    const fail = (error: unknown) => {
      reportCheckoutFailure('apple_pay', error);
      open.current = false;
      setNotice({ tone: 'error', key: 'applePay.failed' });
    };
    sheet.onvalidatemerchant = (event) => {
      ready.validateMerchant(event.validationURL, session.merchant.name).then(
        (merchantSession) => sheet.completeMerchantValidation(merchantSession),
        (error: unknown) => {
          sheet.abort();
          fail(error);
        },
      );
    };
    sheet.onpaymentauthorized = (event) => {
      ready.toNonce(event.payment).then(
        async (nonce) => {
          const outcome = await form.payWithWallet('apple_pay', async () => nonce, event.payment.shippingContact?.emailAddress);
          sheet.completePayment(outcome?.kind === 'leave' ? ApplePaySession.STATUS_SUCCESS : ApplePaySession.STATUS_FAILURE);
          open.current = false;
        },
        (error: unknown) => {
          sheet.completePayment(ApplePaySession.STATUS_FAILURE);
          fail(error);
        },
      );
    };
    sheet.oncancel = () => {
      // Nothing was charged: the button is as it was.
      open.current = false;
    };
    sheet.begin();
  };

  return (
    <div className="apple-pay" data-testid="apple-pay">
      <button type="button" className="apple-pay-button" lang={t.lang} disabled={disabled} aria-busy={disabled} onClick={start}>
        {t('applePay.button')}
      </button>
    </div>
  );
}

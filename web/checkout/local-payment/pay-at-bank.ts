import type { LocalPaymentMethodType } from '../../../src/domain/payments/payment-method-types';
import { isValidCustomerEmail } from '../../../src/domain/sessions/customer-email';
import { base, request } from '../api';
import { failureOutcome } from '../payment-attempt';
import type { CardFormEngine } from '../card-form/engine';
import type { AddressesHandle } from '../shop/AddressForm';
import type { CustomFieldsHandle } from '../shop/CustomFields';
import type { usePaymentAttempt } from '../use-payment-attempt';
import type { BankAnswer, BeginLocalPayment } from './local-payment';

/** The form as a local payment method's button uses it: the checks a payment makes first, and the lock a payment holds. */
export interface BankForm extends Pick<ReturnType<typeof usePaymentAttempt>, 'email' | 'setNotice' | 'emailRef' | 'noticeRef' | 'touchEmail' | 'busy'> {
  engine: CardFormEngine | null;
  /** A payment is under way (the page's state: the order is locked meanwhile too). */
  processing: [boolean, (processing: boolean) => void];
  customFields: React.RefObject<CustomFieldsHandle | null> | null;
  addresses: React.RefObject<AddressesHandle | null> | null;
}

/** The checkout page's local payment endpoints (loaded with the buttons, not with the page). */
const localPaymentApi = {
  /** A local payment (iDEAL…) started: the payment waits for the bank; with Braintree, named by braintree-web's id. */
  start: (
    sessionId: string,
    body: { payment_method_type: LocalPaymentMethodType; email: string; local_payment_id?: string; custom_fields?: Record<string, string | null> },
  ) => request<{ payment: string; status: string; local_payment_id: string; country: string }>(`${base(sessionId)}/local-payments`, { body }),
  /** The shopper's answer in the bank's window (approve: the test window only). */
  answer: (sessionId: string, payment: string, answer: 'approve' | 'fail' | 'cancel') =>
    request<{ payment: string; status: string }>(`${base(sessionId)}/local-payments/${encodeURIComponent(payment)}/answer`, { body: { answer } }),
};

/** Locks the form for a payment; false when one is under way. */
function lock(form: BankForm): boolean {
  if (form.busy.current) return false;
  form.busy.current = true;
  form.processing[1](true);
  form.engine?.setDisabled(true);
  return true;
}

function unlock(form: BankForm): void {
  form.busy.current = false;
  form.engine?.setDisabled(false);
  form.processing[1](false);
}

/**
 * A local payment method (iDEAL…): checks the email, the custom fields and the addresses as a
 * payment does, then `open` records the payment (through `begin`) and opens the bank's window.
 * Approved: the receipt page says it is confirming the payment until the bank's confirmation
 * lands, then shows the receipt. Failed: says so, and the shopper may pay again; canceled: the page is as it
 * was. Either way the server ends that attempt, and nothing is charged.
 */
export async function payAtBank(
  sessionId: string,
  form: BankForm,
  method: LocalPaymentMethodType,
  open: (email: string, begin: BeginLocalPayment) => Promise<BankAnswer>,
  reportsApproval: boolean,
  /** The bank's window failed: the buttons' area says so (its own alert, naming the method). */
  onFailed: () => void,
): Promise<void> {
  const bank = form;
  const { setNotice } = form;
  if (form.busy.current) return;
  setNotice(null);
  if (!isValidCustomerEmail(form.email.trim())) {
    form.touchEmail();
    setNotice({ tone: 'error', key: 'form.fixErrors' });
    form.emailRef.current?.focus();
    return;
  }
  let customFields: Record<string, string | null> | undefined;
  if (bank.customFields) {
    customFields = bank.customFields.current?.answers() ?? undefined;
    if (!customFields) {
      setNotice({ tone: 'error', key: 'form.fixErrors' });
      return;
    }
  }
  if (!lock(form)) return;
  // The addresses typed are saved first (ADR 0086), as for any payment.
  const wait = await bank.addresses?.current?.beforePay(bank.engine);
  if (wait) {
    unlock(form);
    setNotice(wait);
    if (wait.tone === 'info') form.noticeRef.current?.focus();
    return;
  }
  const email = form.email.trim();
  let payment: string | null = null;
  try {
    const answer = await open(email, async (localPaymentId) => {
      const started = await localPaymentApi.start(sessionId, {
        payment_method_type: method,
        email,
        ...(localPaymentId ? { local_payment_id: localPaymentId } : {}),
        ...(customFields ? { custom_fields: customFields } : {}),
      });
      payment = started.payment;
      return started;
    });
    const begun: string | null = payment;
    if (answer === 'approved') {
      if (reportsApproval && begun) await localPaymentApi.answer(sessionId, begun, 'approve');
      // The payment waits for the bank: the receipt page says it is confirming it, and reads the
      // session until the bank's confirmation lands.
      window.location.assign(`/c/${encodeURIComponent(sessionId)}/done`);
      return;
    }
    if (begun) await localPaymentApi.answer(sessionId, begun, answer === 'failed' ? 'fail' : 'cancel');
    unlock(form);
    if (answer === 'failed') onFailed();
  } catch (error) {
    unlock(form);
    const outcome = failureOutcome(error, method, { mayVerify: false });
    if (outcome === 'verify_and_retry' || outcome.kind === 'leave') return;
    // Expired or paid meanwhile: the page, rendered again, says so.
    if (outcome.kind === 'expired' || outcome.kind === 'already_paid') window.location.reload();
    else {
      setNotice({ tone: 'error', key: outcome.key });
      if (outcome.customField) bank.customFields?.current?.refused(outcome.customField);
      else if (outcome.field === 'email') form.emailRef.current?.focus();
      else form.noticeRef.current?.focus();
    }
  }
}

import { leaveCheckout } from './embedded-frame';
import { useEffect, useRef, useState } from 'react';
import { isValidCustomerEmail } from '../../src/domain/sessions/customer-email';
import { checkoutApi } from './api';
import type { CardFormEngine } from './card-form/engine';
import { useFieldsToFix, wrongFields } from './card-form/fields-to-fix';
import type { MessageKey } from './i18n';
import { attemptPayment, cardNonce, walletPayerEmail, type AttemptOutcome, type AttemptRequest, type PaymentMethod } from './payment-attempt';
import type { ProcessorClient } from './processor-client';
import type { CustomFieldsHandle } from './shop/CustomFields';
import type { AddressesHandle } from './shop/AddressForm';

export type Notice = { tone: 'error' | 'info'; key: MessageKey } | null;

/**
 * The payment form's state and its two ways to pay (the card form's submit, a wallet's payment
 * data), around the pure attempt of payment-attempt.ts: locks the form while an attempt runs,
 * shows its outcome, and moves focus to what the shopper must fix.
 */
export function usePaymentAttempt(options: {
  sessionId: string;
  initialEmail: string | null;
  initialNotice: Notice;
  client: ProcessorClient | null;
  engine: CardFormEngine | null;
  /** The card form is mounted and ready to tokenize. */
  cardUsable: boolean;
  /** The shopper consented to saving the card (sessions that ask). */
  saveCard?: boolean;
  onExpired: () => void;
  onAlreadyPaid: () => void;
  /**
   * The session's custom fields (shop/CustomFields.tsx, loaded on demand), null without any: their
   * answers go with every payment, which waits until they pass the page's checks.
   */
  customFields: React.RefObject<CustomFieldsHandle | null> | null;
  /**
   * The addresses the session asks for (shop/AddressForm.tsx, loaded on demand), null when it asks
   * none: a payment first saves what the shopper typed there (ADR 0086).
   */
  addresses?: React.RefObject<AddressesHandle | null> | null;
  /** A payment is under way: the page's state, since the order (an adjustable quantity) is locked meanwhile too. */
  processing: [boolean, (processing: boolean) => void];
}) {
  const { sessionId, client, engine, cardUsable } = options;
  const [email, setEmail] = useState(options.initialEmail ?? '');
  const [emailTouched, setEmailTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [processing, setProcessing] = options.processing;
  const [notice, setNotice] = useState<Notice>(options.initialNotice);
  const busy = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const emailValid = isValidCustomerEmail(email);
  const { fieldsToFix, flag } = useFieldsToFix(engine, emailValid);

  // The server-rendered email field takes typing before React hydrates it (with Braintree, React
  // loads only once the card frames are up): keep what is there, or the next render would clear it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration.
  useEffect(() => {
    const typed = emailRef.current?.value;
    if (typed !== undefined && typed !== email) setEmail(typed);
  }, []);

  const ports = {
    pay: (payment: Parameters<typeof checkoutApi.pay>[1]) => checkoutApi.pay(sessionId, payment),
    deviceData: () => (client ? client.deviceData() : Promise.resolve(null)),
  };

  /** Locks the page, runs one payment attempt, and shows its outcome. */
  const run = async (request: AttemptRequest): Promise<AttemptOutcome | undefined> => {
    if (options.customFields) {
      // Not loaded yet, or an answer to fix: its message shows beside it, with the focus.
      const answers = options.customFields.current?.answers();
      if (!answers) {
        setNotice({ tone: 'error', key: 'form.fixErrors' });
        return undefined;
      }
      request.customFields = answers;
    }
    busy.current = true;
    setProcessing(true);
    engine?.setDisabled(true);
    // The addresses typed are saved first (ADR 0086); the payment waits when one is to fix or the total changed.
    const wait = await options.addresses?.current?.beforePay(engine);
    if (wait) {
      busy.current = false;
      engine?.setDisabled(false);
      setProcessing(false);
      setNotice(wait);
      // A new total takes the focus; a field to fix has it already (the address form put it there).
      if (wait.tone === 'info') noticeRef.current?.focus();
      return undefined;
    }
    const outcome: AttemptOutcome = await attemptPayment(ports, request);
    if (outcome.kind === 'leave') {
      leaveCheckout(outcome.url);
      return outcome; // stay locked while the browser leaves
    }
    busy.current = false;
    engine?.setDisabled(false);
    if (emailRef.current) emailRef.current.disabled = false;
    setProcessing(false);
    if (outcome.kind === 'expired') {
      options.onExpired();
      return undefined;
    }
    if (outcome.kind === 'already_paid') {
      options.onAlreadyPaid();
      return undefined;
    }
    setNotice({ tone: 'error', key: outcome.key });
    if (outcome.customField) {
      options.customFields?.current?.refused(outcome.customField);
    } else if (outcome.field === 'email') {
      setEmailTouched(true);
      emailRef.current?.focus();
      // A saved card's CVC is not the card form's: the saved cards' list points at it.
    } else if (outcome.field && !request.paymentMethod) {
      if (!outcome.fieldValid) engine?.setInvalid(outcome.field, true);
      engine?.focus(outcome.field);
    } else noticeRef.current?.focus();
    return outcome;
  };

  /** The card form's submit. */
  const payByCard = async (event: React.FormEvent) => {
    event.preventDefault();
    // The button is disabled too, but a double click can land before React re-renders.
    if (busy.current || !engine || !client || !cardUsable) return;
    setSubmitted(true);
    setNotice(null);
    const wrong = wrongFields(emailValid, engine.getState());
    if (wrong.length) {
      // Each wrong field shows its message until corrected; the banner names them (fieldsToFix).
      // Nothing is tokenized: the card is sent only once every field is right.
      flag(wrong);
      const first = wrong[0]!;
      if (first === 'email') emailRef.current?.focus();
      else engine.focus(first);
      return;
    }
    const payerEmail = email.trim();
    await run({
      type: 'card',
      email: payerEmail,
      nonce: (issuerAsked) => cardNonce(engine, client, payerEmail, issuerAsked),
      retryWhenIssuerAsks: client.verifiesWhenIssuerAsks,
      savePaymentMethod: options.saveCard,
    });
  };

  /**
   * One tap on a saved card (with its CVC-only nonce when the CVC is asked again); an email to fix
   * comes back from the server as a field to fix. Answers the outcome when the page stays.
   */
  const payWithSavedCard = (paymentMethod: string, cvcNonce?: string) =>
    busy.current
      ? undefined
      : run({ type: 'card', email: email.trim(), paymentMethod, cvcNonce, nonce: async () => ({ key: 'form.fixErrors' }), retryWhenIssuerAsks: false });

  /**
   * A wallet's approval (Google Pay, Apple Pay, PayPal, Venmo): pays with its nonce, with the wallet's
   * email when it gave one and the typed one otherwise. Answers the outcome (nothing when an attempt
   * is already running or could not start).
   */
  const payWithWallet = async (type: PaymentMethod, nonce: () => Promise<string>, walletEmail?: string): Promise<AttemptOutcome | undefined> => {
    if (busy.current) return undefined;
    setNotice(null);
    const given = walletEmail?.trim();
    if (given && !email.trim()) setEmail(given);
    return run({ type, email: walletPayerEmail(given, email), nonce: async () => ({ nonce: await nonce() }), retryWhenIssuerAsks: false });
  };

  return {
    email,
    setEmail,
    /** The shopper left the email field: its error may show. */
    touchEmail: () => setEmailTouched(true),
    showEmailError: !emailValid && (emailTouched || submitted),
    submitted,
    /** The fields the last Pay found wrong, still wrong: the banner names them, each shows its message. */
    fieldsToFix,
    processing,
    notice,
    setNotice,
    emailRef,
    noticeRef,
    payByCard,
    payWithWallet,
    payWithSavedCard,
    busy,
    /** What the form was made with: a local payment method's button (loaded on demand) takes its handles and processing state. */
    made: options,
  };
}

/** The payment form as a wallet button (Apple Pay, PayPal, Venmo) uses it. */
export type WalletForm = Pick<ReturnType<typeof usePaymentAttempt>, 'processing' | 'setNotice' | 'payWithWallet' | 'busy'>;

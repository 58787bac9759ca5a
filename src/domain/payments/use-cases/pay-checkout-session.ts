import type { Payment, PaymentMethodDetails, PaymentMethodType } from '../entities';
import { isBankDebitMethod, isLocalPaymentMethod } from '../payment-method-types';
import { localMethodName } from '../local-payment-methods';
import { paymentSnapshot } from '../../shared/event-payloads';
import { newEvent } from '../../shared/events';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { isValidCustomerEmail } from '../../sessions/customer-email';
import { answerCustomFields } from '../../sessions/shopper-options';
import { assertPaymentMethodEnabled } from '../offered-payment-methods';
import type { Deps } from '../../deps';
import { toThreeDSecureMode } from '../../processors/three-d-secure-policy';
import { builtInFlagKeys } from '../../flags/flag-evaluation';
import type { AuthorizeResult, PaymentProcessor, SavePaymentMethodResult } from '../../processors/ports';
import type { SavedPaymentMethod } from '../../customers/entities';
import { newSavedPaymentMethod, paymentMethodEvent } from '../../customers/saved-payment-methods';
import type { CheckoutSession } from '../../sessions/entities';
import { sessionAsOfNow } from '../../sessions/rules';
import { reserveDiscount } from '../../pricing/redemption';
import { withSessionCustomer } from '../../customers/session-customer';
import { setUpCheckoutSession, type SetUpCheckout } from '../../sessions/use-cases/set-up-checkout-session';
import { savedCardCvcRequired } from '../../sessions/use-cases/get-checkout-page';
import { sendReceiptInBackground } from './send-receipt';
import { ConcurrentTransitionError } from '../transition';
import { startCheckoutSubscription } from '../../billing/use-cases/checkout-subscription';
import { missingAddress } from '../../addresses/use-cases/set-checkout-addresses';
import {
  newPayment,
  recordAuthorizationOutcome,
  recordSettlementPending,
  refusalToPay,
  type KnownAuthorizeResult,
  unrecordedAuthorizationOutcome,
  type PaidCheckout,
  type RecordAuthorizationOptions,
} from '../rules';

export interface PayCheckoutSessionOptions {
  sessionId: string;
  paymentMethodType: PaymentMethodType;
  /**
   * A payment method nonce from the processor's client side (or the test processor's tokenizer);
   * with `paymentMethodId`, the CVC-only nonce of that saved card's CVC typed again.
   */
  nonce?: string | null;
  /** A card saved for the session's customer (`pm_…`), paid with in one tap instead of a nonce. */
  paymentMethodId?: string | null;
  /** The shopper ticked "save this card" on a session whose `save` is `shopper_choice`. */
  savePaymentMethod?: boolean;
  email: string;
  deviceData?: string | null;
  /** The shopper's `Accept-Language`: the receipt's language when the session's locale is `auto`. */
  acceptLanguage?: string | null;
  /** Answers to the session's custom fields, by key (checked against the session's questions). */
  customFields?: Record<string, string | null>;
}

/**
 * The shopper pays a session: record the attempt, ask the processor (outside any transaction),
 * record the outcome. At most one payment per session can be under way or succeed; the database's
 * unique index, not this code alone, guarantees it. An unknown outcome leaves the payment
 * `processing` for reconciliation.
 */
export async function payCheckoutSession(deps: Deps, options: PayCheckoutSessionOptions): Promise<PaidCheckout | (SetUpCheckout & { payment: null })> {
  if (isLocalPaymentMethod(options.paymentMethodType)) {
    // Paid at the shopper's bank and confirmed by the processor later: started on its own endpoint.
    throw new TillpointError(
      'parameter_invalid',
      `${localMethodName(options.paymentMethodType)} is paid at the bank: start it with POST /api/checkout/sessions/:id/local-payments`,
      { param: 'payment_method_type' },
    );
  }
  if (!options.nonce && !options.paymentMethodId) {
    throw new TillpointError('parameter_missing', 'Give a payment method nonce or a saved payment_method', { param: 'nonce' });
  }
  // A bank debit (ACH) pays with the account the page tokenized, with its accepted mandate.
  const bankDebit = isBankDebitMethod(options.paymentMethodType);
  if (bankDebit && (options.paymentMethodId || !options.nonce)) {
    throw new TillpointError('parameter_invalid', 'A US bank account pays with the nonce of the account the shopper entered', {
      param: options.paymentMethodId ? 'payment_method' : 'nonce',
    });
  }
  const email = options.email.trim();
  if (!isValidCustomerEmail(email)) {
    throw new TillpointError('parameter_invalid', 'Enter a valid email address', { param: 'email' });
  }

  // The session, its flags and its processor are read before anything is written: none of them
  // waits on a lock, and a kill switch thrown after the page loaded still stops the payment. The
  // flags paying evaluates are read once, together (`FlagReader.read`).
  const target = await deps.store.read((reader) => reader.checkoutSessions.get(null, options.sessionId));
  if (!target) throw resourceMissing('checkout session', options.sessionId);
  const flags = deps.flags.read ? deps.flags.read(target, builtInFlagKeys) : Promise.resolve(deps.flags);
  const [enabled, forScope, threeDSecureFlag] = await Promise.allSettled([
    flags.then((reader) => assertPaymentMethodEnabled({ flags: reader }, target, options.paymentMethodType)),
    deps.processors.forScope(target),
    flags.then((reader) => reader.stringValue(target, 'three_d_secure', 'when_required', target.id)),
  ]);
  // Refusals in a fixed order: the payment method, the processor, the 3-D Secure flag.
  if (enabled.status === 'rejected') throw enabled.reason;
  if (forScope.status === 'rejected') throw forScope.reason;
  if (threeDSecureFlag.status === 'rejected') throw threeDSecureFlag.reason;
  const processor = forScope.value;
  const threeDSecureMode = toThreeDSecureMode(threeDSecureFlag.value);

  // A setup session saves the card and charges nothing; so does a subscription's with a trial, which
  // then starts the subscription (docs/billing.md).
  const trial = target.purpose === 'subscription' && Boolean(target.subscriptionData?.trialPeriodDays);
  if (target.purpose === 'setup' || trial) {
    if (!options.nonce || options.paymentMethodType !== 'card') {
      throw new TillpointError('parameter_invalid', 'A setup session saves a new card: give its nonce, with payment_method_type card', {
        param: options.nonce ? 'payment_method_type' : 'payment_method',
      });
    }
    const setUp = await setUpCheckoutSession(deps, { session: target, processor, nonce: options.nonce, email, deviceData: options.deviceData ?? null });
    if (trial) await startCheckoutSubscription(deps, setUp.session.id);
    return { ...setUp, payment: null };
  }

  // An address the session asks for is sent before paying (ADR 0068).
  const noAddress = target.status === 'open' ? missingAddress(target) : null;
  if (noAddress) throw noAddress;
  // A bank debit is made from a vaulted, verified account (Braintree requires it): vaulted first, as a card to save is.
  const saving = (bankDebit || wantsSaving(target, options)) && processor.savePaymentMethod !== undefined;
  if (bankDebit && !saving) {
    throw new TillpointError('parameter_invalid', 'This processor takes no US bank accounts', { param: 'payment_method_type' });
  }
  const saved = options.paymentMethodId ? await savedMethodToPay(deps, target, options.paymentMethodId, processor.name) : null;
  // A saved card's CVC typed again comes as its CVC-only nonce; without one where it is required,
  // nothing is recorded or charged.
  const cvcNonce = saved ? (options.nonce ?? null) : null;
  if (saved && !cvcNonce && savedCardCvcRequired(target, processor)) {
    throw new TillpointError('parameter_missing', "Enter the saved card's security code (CVC) again", { param: 'cvc' });
  }

  // 1. Record the intent, on the session's customer (made now when the session makes one, or when
  // the card is to be saved and there is no customer to save it to).
  const answered = await withCustomFieldAnswers(deps, target, options.customFields ?? {});
  const withCustomer = await withSessionCustomer(deps, answered, email, saving);
  const { session, payment } = await recordIntent(deps, {
    session: withCustomer,
    email,
    processor: processor.name,
    paymentMethodType: options.paymentMethodType,
  });

  // 2. Ask the processor, holding no transaction: vault the card first when it is to be saved, then
  // charge the vaulted card (or the nonce, or the saved card).
  let token = saved?.processorToken ?? null;
  let vaulted: { token: string; card: PaymentMethodDetails } | null = null;
  let result: AuthorizeResult | null = null;
  if (saving && session.customerId) {
    const kept = await processor.savePaymentMethod!({
      customerId: session.customerId,
      email,
      nonce: options.nonce ?? '',
      deviceData: options.deviceData ?? null,
      currency: session.currency,
      paymentMethodType: options.paymentMethodType,
    });
    if (kept.outcome === 'saved') {
      vaulted = { token: kept.token, card: kept.paymentMethod };
      token = kept.token;
    } else {
      result = vaultRefusal(kept);
    }
  }
  result ??= await processor.authorize({
    paymentId: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    capture: payment.captureMethod === 'automatic',
    nonce: token ? '' : (options.nonce ?? ''),
    paymentMethodToken: token,
    cvcNonce,
    deviceData: options.deviceData ?? null,
    email,
    threeDSecureMode,
    paymentMethodType: options.paymentMethodType,
  });

  // 3. Record the vaulted card (an approved or unknown charge keeps it; a refused one removes it),
  // then the payment's outcome. Past the processor's answer, a database that cannot record it (out
  // of reach, or a lock held past the lock timeout) does not change what the shopper is told: what
  // the processor said, never a 503 that invites paying again after a charge. The payment stays
  // `processing` while the same answer is recorded in the background, soon after (or, failing
  // that, by reconciliation).
  // A bank debit accepted to settle later: `processing` with its `payment.processing` event; its
  // settlement decides it (recordBankDebitReport), and the receipt goes out then.
  // A bank account the session saves is kept (the customer's `us_bank_account` method, ADR 0108); otherwise removed.
  const keepVaulted = wantsSaving(target, options);
  if (result.outcome === 'pending') {
    if (vaulted) await keepOrDiscardVaulted(deps, processor, { customerId: session.customerId!, session, vaulted, result, keep: keepVaulted });
    return { session, payment: await recordSettlementPending(deps, { payment, result }) };
  }
  const known = result;
  const recording = { session, payment, paymentMethodType: options.paymentMethodType, result: known };
  let vault = vaulted && session.customerId ? { customerId: session.customerId, session, vaulted, result: known, keep: keepVaulted } : null;
  let paid: PaidCheckout;
  try {
    if (vault) await keepOrDiscardVaulted(deps, processor, vault);
    vault = null;
    paid = await recordAuthorization(deps, recording);
  } catch (error) {
    if (!isDatabaseUnavailable(error) || known.outcome === 'unknown') throw error;
    const answered = { ...recording, result: known };
    const unkept = vault;
    recordLater(deps, {
      recording: answered,
      keepVaulted: unkept && (() => keepOrDiscardVaulted(deps, processor, unkept)),
      acceptLanguage: options.acceptLanguage,
    });
    const answer = unrecordedAuthorizationOutcome(deps, answered);
    if ('error' in answer) throw answer.error;
    // The receipt is sent once the payment is recorded (ADR 0066), by the work that records it.
    return answer;
  }
  // 4. A subscription-mode session paid starts its subscription, with the card just saved.
  if (paid.session.purpose === 'subscription' && paid.session.status === 'complete') await startCheckoutSubscription(deps, paid.session.id);
  // 5. The receipt, when the account sends them: after the commit, never holding up the answer.
  sendReceiptInBackground(deps, { payment: paid.payment, acceptLanguage: options.acceptLanguage });
  return paid;
}

const isDatabaseUnavailable = (error: unknown) => error instanceof TillpointError && error.code === 'database_unavailable';

/**
 * The waits before each try at recording an outcome its request could not record: 0.5 s, then
 * doubling up to 8 s, 31.5 s in all (each try's statements waiting at most the lock timeout besides).
 */
export const RECORD_LATER_WAITS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000];

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    // A pending try keeps no process alive: reconciliation records what it leaves.
    const timer: { unref?: () => void } = setTimeout(resolve, ms);
    timer.unref?.();
  });

/**
 * Records, in the background, a processor's answer that its request could not record (the database
 * out of reach, a lock held past the lock timeout): the same write as the request's, tried again
 * after each of `RECORD_LATER_WAITS_MS` until it is written. A payment found already final
 * (reconciliation recorded it meanwhile) is left alone; a try that fails for any other reason than
 * the database's unavailability ends the retries. Reconciliation stays the safety net. The
 * receipt goes out once this records a success (or finds it recorded, with its charge), as after a
 * request that recorded it itself.
 */
function recordLater(
  deps: Deps,
  options: {
    recording: RecordAuthorizationOptions & { result: KnownAuthorizeResult };
    /** The vaulted card's record, when the request could not write it either. */
    keepVaulted: (() => Promise<void>) | null;
    acceptLanguage?: string | null;
  },
): void {
  let keepVaulted = options.keepVaulted;
  deps.background.start(async () => {
    for (const wait of RECORD_LATER_WAITS_MS) {
      await pause(wait);
      let recorded: Awaited<ReturnType<typeof recordAuthorizationOutcome>>;
      try {
        if (keepVaulted) await keepVaulted();
        keepVaulted = null;
        recorded = await recordAuthorizationOutcome(deps, options.recording);
      } catch (error) {
        if (isDatabaseUnavailable(error)) continue;
        // Already final: recorded by reconciliation, or by the request's own statement, committed
        // with its answer lost. Neither sent the receipt: it goes out for this charge's success.
        // Anything else is left to reconciliation.
        if (error instanceof ConcurrentTransitionError) await receiptOfRecordedCharge(deps, options.recording, options.acceptLanguage);
        return;
      }
      if (!('error' in recorded)) sendReceiptInBackground(deps, { payment: recorded.payment, acceptLanguage: options.acceptLanguage });
      return;
    }
  });
}

/** The receipt of a payment found recorded as succeeded with this answer's charge. */
async function receiptOfRecordedCharge(deps: Deps, recording: RecordAuthorizationOptions & { result: KnownAuthorizeResult }, acceptLanguage?: string | null) {
  const { payment, result } = recording;
  if (result.outcome !== 'approved') return;
  const current = await deps.store.read((reader) => reader.payments.get(null, payment.id)).catch(() => null);
  if (current?.status === 'succeeded' && current.processorTransactionId === result.transactionId) {
    sendReceiptInBackground(deps, { payment: current, acceptLanguage });
  }
}

/**
 * Whether this payment saves its card or its US bank account (ADR 0108): the merchant said `on`, or
 * the shopper consented. A subscription's session always saves what pays it.
 */
function wantsSaving(session: CheckoutSession, options: PayCheckoutSessionOptions): boolean {
  if (options.paymentMethodId || (options.paymentMethodType !== 'card' && !isBankDebitMethod(options.paymentMethodType))) return false;
  return session.paymentMethodSave === 'on' || (session.paymentMethodSave === 'shopper_choice' && options.savePaymentMethod === true);
}

/** The saved card a shopper taps: it must be one of the session's customer's, at the session's processor. */
async function savedMethodToPay(deps: Deps, session: CheckoutSession, id: string, processor: string): Promise<SavedPaymentMethod> {
  const scope = { accountId: session.accountId, mode: session.mode };
  const method = session.customerId ? await deps.store.read((reader) => reader.savedPaymentMethods.get(scope, id)) : null;
  if (!method || method.customerId !== session.customerId) {
    throw new TillpointError('resource_missing', `No such payment method: '${id}'`, { param: 'payment_method' });
  }
  if (method.processor !== processor) {
    throw new TillpointError('parameter_invalid', 'This saved card is kept by another processor; use another card', { param: 'payment_method' });
  }
  return method;
}

/** What a refused vaulting means for the payment: the same outcome as a refused charge. */
function vaultRefusal(kept: Exclude<SavePaymentMethodResult, { outcome: 'saved' }>): AuthorizeResult {
  if (kept.outcome === 'declined') {
    return { outcome: 'declined', declineCode: kept.declineCode, transactionId: null, paymentMethod: kept.paymentMethod, response: kept.response };
  }
  return kept;
}

/**
 * A card vaulted for this payment is kept (with `payment_method.attached`) when the charge was
 * approved or its outcome is unknown (reconciliation may find it approved), and removed at the
 * processor when the charge was refused: a shopper whose payment failed has no card saved.
 */
async function keepOrDiscardVaulted(
  deps: Deps,
  processor: PaymentProcessor,
  options: {
    customerId: string;
    session: CheckoutSession;
    vaulted: { token: string; card: PaymentMethodDetails };
    result: AuthorizeResult;
    /** False: vaulted only to be charged (a bank debit the session does not save), removed at the processor once the charge is answered. */
    keep: boolean;
  },
): Promise<void> {
  const { session, vaulted, result } = options;
  if (!options.keep) {
    if (result.outcome !== 'unknown') await processor.deletePaymentMethod?.({ token: vaulted.token }).catch(() => undefined);
    return;
  }
  // A bank debit accepted to settle (`pending`) keeps its verified account: a later decline or
  // return is the debit's, not the account's (a renewal's retry tries it again).
  if (result.outcome === 'approved' || result.outcome === 'unknown' || result.outcome === 'pending') {
    const now = deps.clock.now();
    const card = result.outcome === 'approved' || result.outcome === 'pending' ? result.paymentMethod : vaulted.card;
    const method = newSavedPaymentMethod(
      { id: options.customerId, accountId: session.accountId, mode: session.mode },
      processor.name,
      vaulted.token,
      card,
      now,
    );
    await deps.store.transaction(async (tx) => {
      await tx.savedPaymentMethods.insert(method);
      await tx.events.insert(paymentMethodEvent(method, 'payment_method.attached', now));
    });
    return;
  }
  // Best effort: the refusal is what the shopper is told either way.
  await processor.deletePaymentMethod?.({ token: vaulted.token }).catch(() => undefined);
}

/** How many times an intent is decided again on a session that moved between its read and its write. */
const INTENT_ATTEMPTS = 3;

/**
 * The payment's intent, written on the session as read and decided payable here (refusalToPay):
 * one statement locks the session, checks it is unchanged since that read, and lets the
 * one-payment index decide a session already paid or under way. A session that moved meanwhile is
 * read again and decided again; one that is overdue is expired first, then refused.
 *
 * A local payment's intent (`awaitingBank`) is the payment that waits for the bank: written with
 * its method, the processor's id of it and its `payment.processing` event, in one transaction.
 */
export async function recordIntent(
  deps: Deps,
  options: {
    session: CheckoutSession;
    email: string;
    processor: string;
    paymentMethodType: PaymentMethodType;
    awaitingBank?: { processorPaymentId: string };
  },
): Promise<PaidCheckout> {
  let session = options.session;
  for (let attempt = 1; ; attempt++) {
    const at = deps.clock.now();
    session = await sessionAsOfNow(deps, session, null);
    const refused = refusalToPay(session) ?? missingAddress(session);
    if (refused) throw refused;
    if (!session.paymentMethodTypes.includes(options.paymentMethodType)) {
      throw new TillpointError('parameter_invalid', 'This payment method is not offered for this session', { param: 'payment_method_type' });
    }
    const awaiting = options.awaitingBank;
    const payment: Payment = awaiting
      ? {
          ...newPayment(session, options.email, options.processor, at),
          processorPaymentId: awaiting.processorPaymentId,
          paymentMethod: { type: options.paymentMethodType, brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null, bank: null },
        }
      : newPayment(session, options.email, options.processor, at);
    const paying = session;
    // A discounted session holds its redemption in the intent's transaction (pricing/redemption.ts),
    // a local payment its `payment.processing` event; any other is one statement.
    const taken =
      paying.discounts.length > 0 || awaiting
        ? await deps.store.transaction(async (tx) => {
            if (paying.discounts.length > 0) await reserveDiscount(tx, paying, options.email, at);
            const inserted = await tx.payments.insertForSession(payment, paying);
            if (inserted === 'inserted' && awaiting) await tx.events.insert(newEvent(payment, 'payment.processing', paymentSnapshot(payment), at));
            return inserted;
          })
        : await deps.store.once((db) => db.payments.insertForSession(payment, paying));
    if (taken === 'inserted') return { session, payment };
    if (taken === 'busy' || attempt >= INTENT_ATTEMPTS) throw paymentUnderWay();
    const current = await deps.store.read((reader) => reader.checkoutSessions.get(null, session.id));
    if (!current) throw resourceMissing('checkout session', session.id);
    session = current;
  }
}

function paymentUnderWay(): TillpointError {
  return new TillpointError('idempotency_key_in_use', 'Another payment for this checkout session is under way; wait for its result');
}

/**
 * Writes what the processor said onto the payment (and the session, when it won) and throws the
 * API error that the outcome means for the caller.
 */
export async function recordAuthorization(deps: Deps, options: RecordAuthorizationOptions): Promise<PaidCheckout> {
  if (options.result.outcome === 'unknown') {
    throw new TillpointError('processor_timeout', 'The processor did not answer in time; the payment stays processing until its outcome is known');
  }
  // A bank debit's pending answer is recorded by `recordSettlementPending`, never as an outcome.
  if (options.result.outcome === 'pending') throw new Error(`Payment ${options.payment.id}: a pending settlement is not an outcome`);
  const outcome = await recordAuthorizationOutcome(deps, { ...options, result: options.result });
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

/**
 * The session with the shopper's answers to its custom fields, checked and kept before the intent:
 * a required field left empty or an answer out of bounds refuses the payment with nothing recorded.
 * A session without custom fields is returned as it is.
 */
export async function withCustomFieldAnswers(deps: Deps, session: CheckoutSession, answers: Record<string, string | null>): Promise<CheckoutSession> {
  if ((session.customFields ?? []).length === 0) {
    if (Object.keys(answers).length > 0) answerCustomFields([], answers);
    return session;
  }
  const customFields = answerCustomFields(session.customFields, answers);
  if (JSON.stringify(customFields) === JSON.stringify(session.customFields)) return session;
  return deps.store.transaction(async (tx) => {
    const current = await tx.checkoutSessions.get(null, session.id, { forUpdate: true });
    if (!current) throw resourceMissing('checkout session', session.id);
    const refused = refusalToPay(current);
    if (refused) throw refused;
    if (await tx.payments.holdingSession(current.id)) throw paymentUnderWay();
    const next: CheckoutSession = { ...current, customFields, updatedAt: deps.clock.now() };
    if (!(await tx.checkoutSessions.update(next, 'open'))) throw refusalToPay({ ...current, status: 'complete' })!;
    return next;
  });
}

import type { PaymentMethodDetails } from '../../../domain/payments/entities';
import { isLocalPaymentMethod } from '../../../domain/payments/payment-method-types';
import { describeDecline, describeGatewayRejection, PROCESSOR_UNAVAILABLE_CODE } from '../../../domain/processors/processor-responses';
import type { AuthorizeResult, SavePaymentMethodResult, ThreeDSecureResult } from '../../../domain/processors/ports';

/** The parts of a Braintree SDK transaction we read (the SDK's objects are loosely typed). */
export interface BraintreeTransaction {
  id: string;
  status: string;
  type?: string;
  orderId?: string | null;
  amount?: string;
  currencyIsoCode?: string | null;
  /** The refunds of a sale, by Braintree transaction id. */
  refundIds?: string[] | null;
  processorResponseCode?: string | null;
  processorResponseText?: string | null;
  gatewayRejectionReason?: string | null;
  paymentInstrumentType?: string | null;
  creditCard?: {
    cardType?: string | null;
    last4?: string | null;
    expirationMonth?: string | null;
    expirationYear?: string | null;
    uniqueNumberIdentifier?: string | null;
  } | null;
  androidPayCard?: {
    sourceCardType?: string | null;
    sourceCardLast4?: string | null;
    virtualCardType?: string | null;
    virtualCardLast4?: string | null;
    expirationMonth?: string | null;
    expirationYear?: string | null;
  } | null;
  applePayCard?: {
    cardType?: string | null;
    last4?: string | null;
    expirationMonth?: string | null;
    expirationYear?: string | null;
  } | null;
  paypalAccount?: { payerEmail?: string | null } | null;
  /** The SDK's name for the transaction's `venmo-account` element. */
  venmoAccountDetails?: { username?: string | null } | null;
  threeDSecureInfo?: { status?: string | null; liabilityShifted?: boolean | null } | null;
  /** Advanced Fraud Protection's screening of the sale, when the merchant has it. */
  riskData?: { decision?: string | null } | null;
  /** A local payment method's transaction (`paymentInstrumentType: local_payment`): `ideal`, `bancontact`… */
  localPayment?: { fundingSource?: string | null } | null;
  /** An ACH transaction's account (`paymentInstrumentType: us_bank_account`): never the number, its last 4 digits. */
  usBankAccount?: BraintreeUsBankAccount | null;
  /** An ACH transaction the bank declined or returned: the NACHA code (`R01`…), as newer gateways name it. */
  achReturnCode?: string | null;
  /** An ACH transaction's returns, each with its NACHA code. */
  achReturnResponses?: Array<{ reasonCode?: string | null }> | null;
  createdAt?: string;
}

/** A US bank account as Braintree shows it, on a transaction or vaulted. */
export interface BraintreeUsBankAccount {
  routingNumber?: string | null;
  last4?: string | null;
  accountType?: string | null;
  accountHolderName?: string | null;
  ownershipType?: string | null;
  bankName?: string | null;
}

/** A US bank account as the domain keeps it: `us_bank_account`, its last 4 digits, routing number, type and owner. */
export function usBankAccountMethod(account: BraintreeUsBankAccount): PaymentMethodDetails {
  const last4 = account.last4 ?? '';
  return {
    type: 'us_bank_account',
    brand: null,
    last4: last4 || null,
    expMonth: null,
    expYear: null,
    fingerprint: null,
    usBankAccount: {
      bankName: account.bankName ?? null,
      last4,
      routingNumber: account.routingNumber ?? '',
      accountType: account.accountType?.toLowerCase() === 'savings' ? 'savings' : 'checking',
      accountHolderType: account.ownershipType?.toLowerCase() === 'business' ? 'business' : 'personal',
    },
  };
}

/** A Braintree result object: success, or errors with perhaps a transaction. */
export interface BraintreeResult {
  success: boolean;
  message?: string;
  transaction?: BraintreeTransaction;
  errors?: { deepErrors(): Array<{ code: string; message: string; attribute?: string }> };
}

/**
 * Validation error codes that mean the payment method itself is unusable, so the shopper should
 * enter it again (rather than the processor being unavailable).
 */
const paymentMethodErrors: Record<string, string> = {
  '91564': 'The payment method was already used; enter it again',
  '91565': 'Unknown or expired payment method nonce',
  '91567': 'The payment method cannot be used with this merchant account',
  '91568': 'The payment method cannot be used with this merchant account',
  '93107': 'The payment method was already used; enter it again',
  '93108': 'Unknown or expired payment method nonce',
};

/** Braintree's card type names → the brand names of our API (the same as the test processor's). */
const brandNames: Record<string, string> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american express': 'amex',
  discover: 'discover',
  jcb: 'jcb',
  'diners club': 'diners',
  unionpay: 'unionpay',
  'china unionpay': 'unionpay',
  maestro: 'maestro',
};

function brand(cardType: string | null | undefined): string | null {
  if (!cardType) return null;
  return brandNames[cardType.toLowerCase()] ?? cardType.toLowerCase().replace(/\s+/g, '_');
}

function numberOrNull(value: string | null | undefined): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
}

/** The card or wallet of a transaction, as far as we keep it. */
export function paymentMethodOf(transaction: BraintreeTransaction): PaymentMethodDetails | null {
  const wallet = transaction.androidPayCard;
  if (transaction.paymentInstrumentType === 'android_pay_card' && wallet) {
    return {
      type: 'google_pay',
      brand: brand(wallet.sourceCardType ?? wallet.virtualCardType),
      last4: wallet.sourceCardLast4 ?? wallet.virtualCardLast4 ?? null,
      expMonth: numberOrNull(wallet.expirationMonth),
      expYear: numberOrNull(wallet.expirationYear),
      fingerprint: null,
    };
  }
  const applePay = transaction.applePayCard;
  if (transaction.paymentInstrumentType === 'apple_pay_card' && applePay) {
    return {
      type: 'apple_pay',
      // Braintree names the network as "Apple Pay - Visa".
      brand: brand(applePay.cardType?.replace(/^Apple Pay - /i, '')),
      last4: applePay.last4 ?? null,
      expMonth: numberOrNull(applePay.expirationMonth),
      expYear: numberOrNull(applePay.expirationYear),
      fingerprint: null,
    };
  }
  if (transaction.paymentInstrumentType === 'paypal_account') {
    const payerEmail = transaction.paypalAccount?.payerEmail ?? null;
    return { type: 'paypal', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null, payerEmail };
  }
  if (transaction.paymentInstrumentType === 'local_payment') {
    const source = transaction.localPayment?.fundingSource?.toLowerCase() ?? '';
    // The bank is in the local payment's notification, not the transaction; the payment keeps it from there.
    return { type: isLocalPaymentMethod(source) ? source : 'ideal', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null };
  }
  if (transaction.paymentInstrumentType === 'us_bank_account') return usBankAccountMethod(transaction.usBankAccount ?? {});
  if (transaction.paymentInstrumentType === 'venmo_account') {
    const username = transaction.venmoAccountDetails?.username ?? null;
    return { type: 'venmo', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null, username };
  }
  const card = transaction.creditCard;
  if (!card || (!card.last4 && !card.cardType)) return null;
  return {
    type: 'card',
    brand: brand(card.cardType),
    last4: card.last4 ?? null,
    expMonth: numberOrNull(card.expirationMonth),
    expYear: numberOrNull(card.expirationYear),
    // Braintree's own per-merchant card identifier: the same card gives the same value.
    fingerprint: card.uniqueNumberIdentifier ? card.uniqueNumberIdentifier.slice(0, 32) : null,
  };
}

function threeDSecureOf(transaction: BraintreeTransaction): ThreeDSecureResult | null {
  const info = transaction.threeDSecureInfo;
  if (!info?.status) return null;
  return { status: info.status, liabilityShifted: info.liabilityShifted === true };
}

const approvedStatuses = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settled', 'settlement_pending', 'settlement_confirmed']);
/** An ACH sale's statuses before its money settled. */
const achPendingStatuses = new Set(['authorized', 'submitted_for_settlement', 'settling', 'settlement_pending']);
const capturedStatuses = new Set(['submitted_for_settlement', 'settling', 'settled', 'settlement_pending', 'settlement_confirmed']);

/**
 * What a Braintree transaction says about the authorization: approved, declined by the processor
 * (2000–2999, through the one decline table), rejected by the gateway (through the one rejection
 * table), or the processor network being down (3000, `failed`).
 */
export function authorizationOf(transaction: BraintreeTransaction): Exclude<AuthorizeResult, { outcome: 'unknown' } | { outcome: 'invalid_payment_method' }> {
  const paymentMethod = paymentMethodOf(transaction);
  const threeDSecure = threeDSecureOf(transaction);
  const riskDecision = transaction.riskData?.decision ?? null;
  const code = Number(transaction.processorResponseCode);
  const response = {
    code: transaction.processorResponseCode ?? '',
    text: transaction.processorResponseText ?? '',
  };
  // An ACH debit is accepted long before its money settles: `processing` until TRANSACTION_SETTLED.
  if (transaction.paymentInstrumentType === 'us_bank_account' && achPendingStatuses.has(transaction.status)) {
    return {
      outcome: 'pending',
      transactionId: transaction.id,
      paymentMethod: paymentMethod ?? usBankAccountMethod({}),
      response,
      riskDecision,
    };
  }
  if (approvedStatuses.has(transaction.status) || (transaction.status === 'voided' && code > 0 && code < 2000)) {
    return {
      outcome: 'approved',
      captured: capturedStatuses.has(transaction.status),
      transactionId: transaction.id,
      paymentMethod: paymentMethod ?? { type: 'card', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null },
      response,
      threeDSecure,
      riskDecision,
    };
  }
  if (transaction.status === 'gateway_rejected') {
    const { declineCode, ...rejection } = describeGatewayRejection(transaction.gatewayRejectionReason ?? 'unknown');
    return { outcome: 'declined', declineCode, transactionId: transaction.id, paymentMethod, response: rejection, threeDSecure, riskDecision };
  }
  if (code === PROCESSOR_UNAVAILABLE_CODE || transaction.status === 'failed') {
    return { outcome: 'unavailable', response: response.code ? response : null };
  }
  const { declineCode, ...described } = describeDecline(code >= 2000 && code < 3000 ? code : 2000);
  return {
    outcome: 'declined',
    declineCode,
    transactionId: transaction.id,
    paymentMethod,
    response: { code: described.code, text: response.text || described.text },
    threeDSecure,
    riskDecision,
  };
}

/** Maps the result of `transaction.sale` onto what the domain understands. */
export function saleOutcome(result: BraintreeResult): AuthorizeResult {
  if (result.transaction) return authorizationOf(result.transaction);
  const errors = result.errors?.deepErrors() ?? [];
  for (const error of errors) {
    const message = paymentMethodErrors[String(error.code)];
    if (message) return { outcome: 'invalid_payment_method', message };
  }
  const first = errors[0];
  // Any other validation error is a setup problem on our side or the merchant's (a wrong merchant
  // account, a missing setting): nothing was charged, and the shopper cannot fix it.
  return {
    outcome: 'unavailable',
    response: first ? { code: String(first.code), text: first.message } : { code: 'validation', text: result.message ?? 'Validation failed' },
  };
}

/** SDK exceptions after which the charge may exist: the gateway may have acted before we lost the answer. */
const unknownOutcomeTypes = new Set(['unexpectedError', 'serverError', 'gatewayTimeoutError', 'requestTimeoutError']);

/** A thrown SDK error → unknown (maybe charged) or unavailable (certainly not charged). */
export function thrownOutcome(error: unknown): { outcome: 'unknown'; reason: string } | { outcome: 'unavailable'; response: { code: string; text: string } } {
  const type = (error as { type?: string })?.type ?? 'unexpectedError';
  const message = error instanceof Error ? error.message : String(error);
  if (unknownOutcomeTypes.has(type)) return { outcome: 'unknown', reason: `${type}: ${message}` };
  return { outcome: 'unavailable', response: { code: type, text: message || type } };
}

/** The result of `paymentMethod.create`: the vaulted method, or errors and perhaps the failed verification. */
export interface VaultResult {
  success: boolean;
  message?: string;
  paymentMethod?: { token: string } & NonNullable<BraintreeTransaction['creditCard']>;
  verification?: {
    status: string;
    processorResponseCode?: string | null;
    processorResponseText?: string | null;
    gatewayRejectionReason?: string | null;
    creditCard?: BraintreeTransaction['creditCard'];
  } | null;
  errors?: BraintreeResult['errors'];
}

/**
 * Maps `paymentMethod.create` with `verifyCard` onto the port: the token and the card, a failed
 * verification as a decline (the same tables as a sale's), an unusable nonce, or anything else as
 * the processor being unavailable.
 */
export function vaultOutcome(result: VaultResult): SavePaymentMethodResult {
  if (result.success && result.paymentMethod) {
    const card = paymentMethodOf({ id: '', status: 'vaulted', creditCard: result.paymentMethod });
    return {
      outcome: 'saved',
      token: result.paymentMethod.token,
      paymentMethod: card ?? { type: 'card', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null },
    };
  }
  const verification = result.verification;
  if (verification) {
    const checked = authorizationOf({
      id: '',
      status: verification.status,
      processorResponseCode: verification.processorResponseCode ?? null,
      processorResponseText: verification.processorResponseText ?? null,
      gatewayRejectionReason: verification.gatewayRejectionReason ?? null,
      creditCard: verification.creditCard ?? null,
    });
    if (checked.outcome === 'declined')
      return { outcome: 'declined', declineCode: checked.declineCode, paymentMethod: checked.paymentMethod, response: checked.response };
    if (checked.outcome === 'unavailable') return checked;
  }
  const outcome = saleOutcome({ success: false, message: result.message, errors: result.errors });
  if (outcome.outcome === 'invalid_payment_method' || outcome.outcome === 'unavailable') return outcome;
  return { outcome: 'unavailable', response: { code: 'validation', text: result.message ?? 'The card could not be saved' } };
}

/** A vaulted US bank account as `paymentMethod.create` answers it: verified or not, with its verifications. */
interface VaultedUsBankAccount extends BraintreeUsBankAccount {
  token: string;
  verified?: boolean | null;
  verifications?: Array<{ status?: string | null; processorResponseCode?: string | null; processorResponseText?: string | null }> | null;
}

/**
 * Maps `paymentMethod.create` of a US bank account with a network check onto the port: verified →
 * saved; a verification declined (the account's check failed: Braintree still vaults it, unverified)
 * → a decline through the one table; the network down (3000) → unavailable; anything else as a card's.
 */
export function bankVaultOutcome(result: VaultResult): SavePaymentMethodResult {
  const account = result.paymentMethod as unknown as VaultedUsBankAccount | undefined;
  if (!result.success || !account) return vaultOutcome(result);
  const paymentMethod = usBankAccountMethod(account);
  if (account.verified === true) return { outcome: 'saved', token: account.token, paymentMethod };
  const verification = account.verifications?.[0];
  const code = Number(verification?.processorResponseCode);
  const response = {
    code: verification?.processorResponseCode ?? 'unverified',
    text: verification?.processorResponseText ?? 'The bank account could not be verified',
  };
  if (code === PROCESSOR_UNAVAILABLE_CODE || verification?.status === 'failed') return { outcome: 'unavailable', response };
  const { declineCode, ...described } = describeDecline(code >= 2000 && code < 3000 ? code : 2000);
  return { outcome: 'declined', declineCode, paymentMethod, response: { code: described.code, text: verification?.processorResponseText || described.text } };
}

/** The NACHA return code of a declined ACH transaction, when the gateway gives one. */
export function achReturnCodeOf(transaction: BraintreeTransaction): string | null {
  return transaction.achReturnCode ?? transaction.achReturnResponses?.find((response) => response.reasonCode)?.reasonCode ?? null;
}

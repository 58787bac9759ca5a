import { createHmac, randomBytes } from 'node:crypto';
import valid from 'card-validator';
import { randomHex } from '../../../domain/shared/ids';
import { majorUnits } from '../../../domain/shared/money';
import type { PaymentMethodDetails } from '../../../domain/payments/entities';
import type {
  FoundTransaction,
  OperationResult,
  RawCard,
  TokenizeResult,
  AuthorizeRequest,
  AuthorizeResult,
  PaymentProcessor,
  GooglePayTestPayment,
  DisputeEvidenceUpload,
  DisputeOperationResult,
  ProcessorDispute,
  SavePaymentMethodRequest,
  SavePaymentMethodResult,
  ThreeDSecureVerification,
} from '../../../domain/processors/ports';
import type { Scope } from '../../../domain/shared/scope';
import type { DisputeStatus } from '../../../domain/disputes/state-machine';
import { describeDecline, describeGatewayRejection, PROCESSOR_UNAVAILABLE_CODE } from '../../../domain/processors/processor-responses';
import { threeDSecurePolicy } from '../../../domain/processors/three-d-secure-policy';
import { FAKE_LOCAL_PAYMENT_NONCE, fakeNonces, SANDBOX_CVC_MISMATCH, testCards, threeDSecureCards, threeDSecureResults } from './sandbox-cards';
import { isCvcOnly } from '../../../domain/processors/sandbox-ports';
import { googlePayTestGateway, readGooglePayTestToken } from './google-pay-test-token';
import type {
  RecordedAuthorization,
  SandboxTransaction,
  SandboxTransactionLedger,
  SandboxCardBehavior,
  SandboxNonceVault,
  SandboxDispute,
  SandboxDisputeLedger,
  SandboxDisputeStatus,
  SandboxNonceThreeDSecure,
  SandboxLocalPaymentLedger,
  SandboxBankDebitLedger,
} from '../../../domain/processors/sandbox-ports';
import type { BankDebitReport, LocalPaymentReport, RawBankAccount, TestLocalPaymentRequest } from '../../../domain/processors/ports';
import { isValidBankAccountNumber, isValidRoutingNumber } from '../../../domain/payments/bank-debits';
import {
  bankDebitOutcome,
  FAKE_US_BANK_ACCOUNT_NONCE,
  TEST_BANK_NAME,
  testBankAccounts,
  UNKNOWN_TEST_BANK_ACCOUNT,
  verificationDecline,
} from './sandbox-bank-accounts';
import { isLocalPaymentMethod, type LocalPaymentMethodType } from '../../../domain/payments/payment-method-types';
import { bankOfBic, localMethodName } from '../../../domain/payments/local-payment-methods';

/** The wallets whose nonces pay only as themselves (and which only their own nonces pay). */
const walletTypes: ReadonlySet<string> = new Set(['apple_pay', 'paypal', 'venmo']);
const walletNames: Record<string, string> = { card: 'a card', google_pay: 'Google Pay', apple_pay: 'Apple Pay', paypal: 'PayPal', venmo: 'Venmo' };

/**
 * Whether a sale that requires 3-D Secure goes through with this verification, as Braintree's
 * `threeDSecure.required` decides: only when authentication shifted liability. A nonce never
 * verified, a challenge left unanswered or failed, a card not enrolled or whose authentication was
 * unavailable: all rejected (`three_d_secure`).
 */
function passesRequiredThreeDSecure(result: SandboxNonceThreeDSecure['result'] | undefined): boolean {
  return result?.liabilityShifted === true;
}

/** card-validator's type names → the brand names of our API. */
const brandNames: Record<string, string> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  discover: 'discover',
  jcb: 'jcb',
  'diners-club': 'diners',
  unionpay: 'unionpay',
  maestro: 'maestro',
};

/** How the test processor's transactions settle. */
export interface SandboxSettlement {
  /** Time from submission for settlement to `settled`; 0 settles at once (the default). */
  delayMs: number;
}

/** How long after the shopper approves a test local payment its bank completes it, unless configured. */
export const DEFAULT_TEST_LOCAL_PAYMENT_DELAY_SECONDS = 3;

/** The bank each test local payment is made from (a BIC of its country, and an IBAN's last 4 characters). */
export const TEST_LOCAL_PAYMENT_BANKS: Readonly<Record<LocalPaymentMethodType, { bic: string; ibanLast4: string }>> = {
  ideal: { bic: 'INGBNL2A', ibanLast4: '5264' },
  bancontact: { bic: 'GEBABEBB', ibanLast4: '5264' },
  sofort: { bic: 'DEUTDEFF', ibanLast4: '5264' },
  giropay: { bic: 'COBADEFF', ibanLast4: '5264' },
  eps: { bic: 'BKAUATWW', ibanLast4: '5264' },
  p24: { bic: 'BREXPLPW', ibanLast4: '5264' },
  mybank: { bic: 'UNCRITMM', ibanLast4: '5264' },
  blik: { bic: 'BPKOPLPW', ibanLast4: '5264' },
};

/** How long after its sale a test bank debit settles (and after that, a returned one is returned), unless configured. */
export const DEFAULT_TEST_ACH_SETTLE_DELAY_SECONDS = 5;

/** Braintree's dispute test card: charged, then disputed some seconds after capture. */
export const DISPUTE_TEST_CARD = '4023898493988028';

/** How long after capture the bank opens the dispute of the dispute test card, and after finalizing decides it. */
export const SANDBOX_DISPUTE_DELAY_MS = 5_000;

/** How long the merchant has to answer a test dispute. */
export const SANDBOX_DISPUTE_REPLY_MS = 7 * 24 * 60 * 60 * 1000;

/** The text evidence that wins a test dispute once submitted, and the one that loses it (as Braintree's sandbox). */
export const WINNING_EVIDENCE = 'compelling_evidence';
export const LOSING_EVIDENCE = 'losing_evidence';

/** Braintree's dispute statuses → ours. */
const disputeStatuses: Record<SandboxDisputeStatus, DisputeStatus> = {
  open: 'needs_response',
  disputed: 'under_review',
  accepted: 'accepted',
  won: 'won',
  lost: 'lost',
  expired: 'expired',
};

/**
 * The built-in processor for test mode. It follows the Braintree sandbox: test cards only, the
 * amount decides the outcome (2000.00–2999.99 decline with that response code, 3000.00 fails),
 * fake nonces work, and nonces are single-use. It remembers its transactions, so capture (submit for
 * settlement, once, up to the authorized amount), void (authorized or submitted) and refund (settled
 * only, never beyond what was captured) behave as Braintree's do.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'test';

  constructor(
    private readonly vault: SandboxNonceVault,
    /** Key for card fingerprints, so the same card matches without its number being kept. */
    private readonly fingerprintKey: string,
    private readonly now: () => Date,
    private readonly ledger: SandboxTransactionLedger,
    private readonly settlement: SandboxSettlement = { delayMs: 0 },
    private readonly disputes: SandboxDisputeLedger | null = null,
    /** Its local payments (iDEAL…), and how long after an approval the bank completes one. */
    private readonly localPayments: { ledger: SandboxLocalPaymentLedger; delayMs: number } | null = null,
    /** Its bank debits (ACH), and how long after its sale one settles (and after that, a returned one comes back). */
    private readonly bankDebits: { ledger: SandboxBankDebitLedger; settleDelayMs: number } | null = null,
  ) {}

  /**
   * A US bank account typed on the page, with its accepted mandate → a single-use nonce, as
   * braintree-web's `us-bank-account` tokenizes one at Braintree. Only the last 4 digits are kept;
   * what the test account does (docs/test-processor.md) travels with the nonce.
   */
  async tokenizeBankAccount(account: RawBankAccount): Promise<TokenizeResult> {
    const routingNumber = account.routingNumber.trim();
    const accountNumber = account.accountNumber.replace(/[\s-]/g, '');
    if (!isValidRoutingNumber(routingNumber)) {
      return { ok: false, declineCode: 'processing_error', param: 'routing_number', message: 'The routing number is not valid: 9 digits' };
    }
    if (!isValidBankAccountNumber(accountNumber)) {
      return { ok: false, declineCode: 'processing_error', param: 'account_number', message: 'The account number is not valid: 4 to 17 digits' };
    }
    if (!account.holderName.trim())
      return { ok: false, declineCode: 'processing_error', param: 'account_holder_name', message: "Enter the account holder's name" };
    if (!account.mandateText.trim())
      return { ok: false, declineCode: 'processing_error', param: 'mandate_text', message: 'The shopper must accept the mandate' };
    const paymentMethod: PaymentMethodDetails = {
      type: 'us_bank_account',
      brand: null,
      last4: accountNumber.slice(-4),
      expMonth: null,
      expYear: null,
      fingerprint: createHmac('sha256', this.fingerprintKey).update(`${routingNumber}:${accountNumber}`).digest('base64url').slice(0, 16),
      usBankAccount: {
        bankName: TEST_BANK_NAME,
        last4: accountNumber.slice(-4),
        routingNumber,
        accountType: account.accountType,
        accountHolderType: account.accountHolderType,
      },
    };
    const nonce = `tokenusbankacct_${randomBytes(18).toString('base64url')}`;
    await this.vault.save({ nonce, paymentMethod, behavior: testBankAccounts.get(accountNumber) ?? UNKNOWN_TEST_BANK_ACCOUNT, createdAt: this.now() });
    return { ok: true, nonce, paymentMethod };
  }

  /**
   * The bank debits whose news is due by now, each reported once (as Braintree notifies
   * `TRANSACTION_SETTLED` and `TRANSACTION_SETTLEMENT_DECLINED`): settled (its transaction is then
   * `settled`, and refundable), declined instead of settling, or returned after settling.
   */
  async dueBankDebitReports(): Promise<BankDebitReport[]> {
    if (!this.bankDebits) return [];
    const now = this.now();
    const due = await this.bankDebits.ledger.takeDue(now, 100);
    const reports: BankDebitReport[] = [];
    for (const { debit, news } of due) {
      if (news === 'settled') await this.ledger.settleDue(debit.transactionId, new Date(Math.max(now.getTime(), debit.settlesAt.getTime())));
      else await this.ledger.move(debit.transactionId, ['submitted_for_settlement', 'settled'], 'settlement_declined', {}, now);
      reports.push({
        kind: news === 'settled' ? 'settled' : 'declined',
        transactionId: debit.transactionId,
        paymentId: debit.paymentId,
        returnCode: news === 'settled' ? null : debit.returnCode,
      });
    }
    return reports;
  }

  /**
   * Opens a local payment for the test window, as braintree-web's `local-payment` opens one at
   * Braintree: an id in Braintree's `PAY-…` form, waiting for the shopper's answer.
   */
  async beginTestLocalPayment(request: TestLocalPaymentRequest): Promise<{ processorPaymentId: string }> {
    if (!this.localPayments) throw new Error('This test processor keeps no local payments');
    const now = this.now();
    const id = `PAY-${randomHex(12).toUpperCase()}`;
    await this.localPayments.ledger.insert({
      id,
      scope: { accountId: request.scope.accountId, mode: request.scope.mode },
      paymentMethodType: request.paymentMethodType,
      amount: request.amount,
      currency: request.currency,
      status: 'pending',
      bic: null,
      ibanLast4: null,
      completesAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return { processorPaymentId: id };
  }

  /**
   * The shopper's answer in the test window: approved, the bank completes the payment after the
   * configured delay (from its test bank); failed, it never completes. Once only.
   */
  async answerTestLocalPayment(request: { processorPaymentId: string; approve: boolean }): Promise<boolean> {
    if (!this.localPayments) return false;
    const now = this.now();
    if (!request.approve) return this.localPayments.ledger.answer(request.processorPaymentId, { status: 'failed' }, now);
    const payment = await this.localPayments.ledger.get(request.processorPaymentId);
    if (!payment) return false;
    const completesAt = new Date(now.getTime() + this.localPayments.delayMs);
    return this.localPayments.ledger.answer(payment.id, { status: 'approved', completesAt, ...TEST_LOCAL_PAYMENT_BANKS[payment.paymentMethodType] }, now);
  }

  /**
   * The local payments whose bank has completed them by now, each reported once (as Braintree
   * notifies `LOCAL_PAYMENT_COMPLETED`): with Braintree's fake local payment nonce for the sale, and
   * the bank the payment was made from.
   */
  async dueLocalPaymentReports(): Promise<Array<{ scope: Scope; report: LocalPaymentReport }>> {
    if (!this.localPayments) return [];
    const due = await this.localPayments.ledger.takeDue(this.now(), 100);
    return due.map((payment) => {
      const bank = TEST_LOCAL_PAYMENT_BANKS[payment.paymentMethodType];
      const bic = payment.bic ?? bank.bic;
      return {
        scope: payment.scope,
        report: {
          kind: 'completed',
          processorPaymentId: payment.id,
          nonce: FAKE_LOCAL_PAYMENT_NONCE,
          transactionId: null,
          bank: { name: bankOfBic(bic), bic, ibanLast4: payment.ibanLast4 ?? bank.ibanLast4 },
        },
      };
    });
  }

  async clientConfiguration(): Promise<Record<string, unknown>> {
    return { tokenize: 'server', googlePay: googlePayTestGateway };
  }

  /** A Google Pay token from Google's test gateway → a single-use nonce, like a tokenized test card. */
  async tokenizeGooglePay(payment: GooglePayTestPayment): Promise<TokenizeResult> {
    const read = readGooglePayTestToken(payment);
    if (!read.ok) return { ok: false, declineCode: 'processing_error', param: read.param, message: read.message };
    const nonce = `tokengp_${randomBytes(18).toString('base64url')}`;
    await this.vault.save({ nonce, paymentMethod: read.paymentMethod, behavior: 'amount', createdAt: this.now() });
    return { ok: true, nonce, paymentMethod: read.paymentMethod };
  }

  async tokenizeCard(card: RawCard): Promise<TokenizeResult> {
    const number = card.number.replace(/[\s-]/g, '');
    const checked = valid.number(number);
    if (!checked.isValid || !checked.card) {
      return { ok: false, declineCode: 'incorrect_number', param: 'number', message: 'The card number is not valid' };
    }
    const expiry = valid.expirationDate({ month: String(card.expMonth), year: String(card.expYear) }, 20);
    if (!expiry.isValid) {
      return { ok: false, declineCode: 'expired_card', param: 'exp', message: 'The expiry date is not valid' };
    }
    const cvcLength = checked.card.code.size;
    if (!valid.cvv(card.cvc, cvcLength).isValid) {
      return {
        ok: false,
        declineCode: 'incorrect_cvc',
        param: 'cvc',
        message: `The security code must be ${cvcLength} digits`,
      };
    }
    const behavior = testCards.get(number);
    if (!behavior) {
      return {
        ok: false,
        declineCode: 'test_mode_live_card',
        param: 'number',
        message: 'Your card was declined: test mode accepts only test card numbers',
      };
    }
    const paymentMethod: PaymentMethodDetails = {
      type: 'card',
      brand: brandNames[checked.card.type] ?? checked.card.type,
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear < 100 ? 2000 + card.expYear : card.expYear,
      fingerprint: createHmac('sha256', this.fingerprintKey).update(number).digest('base64url').slice(0, 16),
    };
    const nonce = `tokencc_${randomBytes(18).toString('base64url')}`;
    const scenario = threeDSecureCards.get(number);
    await this.vault.save({ nonce, paymentMethod, behavior, createdAt: this.now(), threeDSecure: scenario ? { scenario } : null });
    return { ok: true, nonce, paymentMethod };
  }

  /**
   * A saved card's CVC typed again → a CVC-only nonce, as Braintree's Hosted Fields make one with
   * only the CVV field. The length follows the card's brand; the CVC itself is dropped here, only
   * its check is kept: 200 does not match (Braintree's sandbox CVV for "N"), any other matches.
   */
  async tokenizeCvc(request: { cvc: string; brand: string | null }): Promise<TokenizeResult> {
    const size = request.brand === 'amex' ? 4 : 3;
    if (!valid.cvv(request.cvc, size).isValid) {
      return { ok: false, declineCode: 'incorrect_cvc', param: 'cvc', message: `The security code must be ${size} digits` };
    }
    const paymentMethod: PaymentMethodDetails = { type: 'card', brand: request.brand, last4: null, expMonth: null, expYear: null, fingerprint: null };
    const nonce = `tokencvc_${randomBytes(18).toString('base64url')}`;
    await this.vault.save({
      nonce,
      paymentMethod,
      behavior: SANDBOX_CVC_MISMATCH.includes(request.cvc) ? 'cvc_only_mismatch' : 'cvc_only_match',
      createdAt: this.now(),
    });
    return { ok: true, nonce, paymentMethod };
  }

  /**
   * 3-D Secure as Braintree's sandbox runs it for its 3-D Secure test cards: the card's scenario
   * decides (frictionless, challenge, failed, unavailable); any other test card is not enrolled.
   * The nonce is used up, as verifyCard's is; the answer carries a new one.
   */
  async verifyThreeDSecure(request: { nonce: string }): Promise<ThreeDSecureVerification> {
    const record = await this.vault.take(request.nonce, this.now());
    if (record?.paymentMethod.type !== 'card' || isCvcOnly(record.behavior)) return { ok: false, message: 'Unknown or expired payment method nonce' };
    if (record.threeDSecure?.result) return { ok: false, message: 'This nonce was already verified' };
    const scenario = record.threeDSecure?.scenario;
    const result = scenario ? threeDSecureResults[scenario] : threeDSecureResults.notEnrolled;
    return this.verified(record.paymentMethod, record.behavior, result);
  }

  /** The shopper's answer to the test challenge of a `challenge` card: authenticated, or failed. */
  async answerThreeDSecureChallenge(request: { nonce: string; passed: boolean }): Promise<ThreeDSecureVerification> {
    const record = await this.vault.take(request.nonce, this.now());
    if (record?.threeDSecure?.result?.status !== 'challenge_required') {
      return { ok: false, message: 'No 3-D Secure challenge waits on this nonce' };
    }
    const result = request.passed ? threeDSecureResults.challengePassed : threeDSecureResults.challengeFailed;
    return this.verified(record.paymentMethod, record.behavior, result);
  }

  private async verified(
    paymentMethod: PaymentMethodDetails,
    behavior: SandboxCardBehavior,
    result: NonNullable<SandboxNonceThreeDSecure['result']>,
  ): Promise<ThreeDSecureVerification> {
    const nonce = `tokencc_${randomBytes(18).toString('base64url')}`;
    await this.vault.save({ nonce, paymentMethod, behavior, createdAt: this.now(), threeDSecure: { result: { ...result } } });
    return { ok: true, nonce, ...result, challenge: result.status === 'challenge_required' };
  }

  /**
   * Vaults the card of a single-use nonce for the customer, as Braintree's `paymentMethod.create`
   * with card verification does: a card that always declines fails verification (2000), one that
   * always fails answers the processor unavailable; the others are kept under a new token.
   */
  async savePaymentMethod(request: SavePaymentMethodRequest): Promise<SavePaymentMethodResult> {
    const resolved = await this.resolveNonce(request.nonce);
    if (!resolved || isCvcOnly(resolved.behavior) || resolved.local)
      return { outcome: 'invalid_payment_method', message: 'Unknown or expired payment method nonce' };
    const bankAccount = resolved.paymentMethod.type === 'us_bank_account';
    if (bankAccount !== (request.paymentMethodType === 'us_bank_account')) {
      return {
        outcome: 'invalid_payment_method',
        message: bankAccount ? 'This nonce is a US bank account: save it as us_bank_account' : 'This nonce is not a US bank account',
      };
    }
    // A bank account is verified by Braintree's network check: its test number decides.
    const verificationCode = bankAccount ? verificationDecline(resolved.behavior) : null;
    if (verificationCode !== null) {
      const { declineCode, ...response } = describeDecline(verificationCode);
      return { outcome: 'declined', declineCode, paymentMethod: resolved.paymentMethod, response };
    }
    if (resolved.behavior === 'processor_failure') {
      return { outcome: 'unavailable', response: { code: String(PROCESSOR_UNAVAILABLE_CODE), text: 'Processor Network Unavailable - Try Again' } };
    }
    if (resolved.behavior === 'decline') {
      const { declineCode, ...response } = describeDecline(2000);
      return { outcome: 'declined', declineCode, paymentMethod: resolved.paymentMethod, response };
    }
    const token = `testpm_${randomBytes(12).toString('base64url')}`;
    await this.vault.saveMethod({
      token,
      customerId: request.customerId,
      paymentMethod: resolved.paymentMethod,
      behavior: resolved.behavior,
      createdAt: this.now(),
    });
    return { outcome: 'saved', token, paymentMethod: resolved.paymentMethod };
  }

  async deletePaymentMethod(request: { token: string }): Promise<'deleted' | 'missing'> {
    return (await this.vault.deleteMethod(request.token)) ? 'deleted' : 'missing';
  }

  async authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
    const resolved = request.paymentMethodToken ? await this.vault.getMethod(request.paymentMethodToken) : await this.resolveNonce(request.nonce);
    if (!resolved || isCvcOnly(resolved.behavior)) {
      return { outcome: 'invalid_payment_method', message: 'Unknown or expired payment method nonce' };
    }
    // A saved card's CVC typed again goes with its token; a CVC that does not match is refused as
    // Braintree's CVV rules refuse it, before any transaction exists.
    const cvc = request.paymentMethodToken && request.cvcNonce ? await this.vault.take(request.cvcNonce, this.now()) : null;
    if (request.cvcNonce && (!cvc || !isCvcOnly(cvc.behavior))) {
      return { outcome: 'invalid_payment_method', message: 'Unknown or expired CVC nonce' };
    }
    const { behavior } = resolved;
    const paidAs = request.paymentMethodType ?? 'card';
    // A US bank account is debited only once vaulted and verified (as Braintree requires), and pays only as one.
    if ((resolved.paymentMethod.type === 'us_bank_account') !== (paidAs === 'us_bank_account')) {
      return {
        outcome: 'invalid_payment_method',
        message: paidAs === 'us_bank_account' ? 'Pay us_bank_account with a US bank account' : `A US bank account pays only as us_bank_account, not ${paidAs}`,
      };
    }
    if (paidAs === 'us_bank_account') {
      if (!request.paymentMethodToken)
        return { outcome: 'invalid_payment_method', message: 'A US bank account is debited once vaulted and verified: save it first' };
      return this.debitBankAccount(request, resolved.paymentMethod, behavior);
    }
    // A local payment's nonce pays only as a local payment method, and a local payment method only with one.
    const local = 'local' in resolved && resolved.local === true;
    if (local !== isLocalPaymentMethod(paidAs)) {
      return {
        outcome: 'invalid_payment_method',
        message: local
          ? `This nonce is a local payment's: it pays only a local payment method, not ${walletNames[paidAs] ?? paidAs}`
          : `${localMethodName(paidAs)} is paid at the bank: only its completed local payment's nonce pays it`,
      };
    }
    const paymentMethod: PaymentMethodDetails = local ? { ...resolved.paymentMethod, type: paidAs } : resolved.paymentMethod;
    if (!local && paymentMethod.type !== paidAs && (walletTypes.has(paymentMethod.type) || walletTypes.has(paidAs))) {
      return {
        outcome: 'invalid_payment_method',
        message: `This nonce is ${walletNames[paymentMethod.type]}'s, not ${walletNames[paidAs]}'s: pay with payment_method_type ${paymentMethod.type}`,
      };
    }
    const threeDSecureResult = 'threeDSecure' in resolved ? resolved.threeDSecure?.result : undefined;
    const threeDSecure = threeDSecureResult ? { status: threeDSecureResult.status, liabilityShifted: threeDSecureResult.liabilityShifted } : null;
    const policy = threeDSecurePolicy({ mode: request.threeDSecureMode ?? 'when_required', accountRequires: false, paymentMethodType: paidAs });
    const transactionId = newTransactionId();
    if (behavior === 'processor_failure') return unavailable();
    const major = majorUnits(request.amount, request.currency);
    let result: RecordedAuthorization;
    if (cvc?.behavior === 'cvc_only_mismatch') {
      const { declineCode, ...response } = describeGatewayRejection('cvv');
      result = { outcome: 'declined', declineCode, transactionId, paymentMethod, response };
    } else if (policy.requireInSale && !passesRequiredThreeDSecure(threeDSecureResult)) {
      const { declineCode, ...response } = describeGatewayRejection('three_d_secure');
      result = { outcome: 'declined', declineCode, transactionId, paymentMethod, response, threeDSecure };
    } else if (behavior === 'decline' || behavior === 'decline_after_save') result = declined(2000, transactionId, paymentMethod);
    else if (major >= 2000 && major < 3000) result = declined(major, transactionId, paymentMethod);
    else if (major === PROCESSOR_UNAVAILABLE_CODE) return unavailable();
    else {
      result = {
        outcome: 'approved',
        captured: request.capture,
        transactionId,
        paymentMethod,
        response: { code: '1000', text: 'Approved' },
      };
    }
    if (threeDSecure && (result.outcome === 'approved' || result.outcome === 'declined')) result = { ...result, threeDSecure };
    const now = this.now();
    const approved = result.outcome === 'approved';
    const settlesAt = approved && request.capture ? this.settlementTime(now) : null;
    // A capture that settles at once (no settlement delay) is written settled: one write, not two.
    const settled = settlesAt !== null && settlesAt.getTime() <= now.getTime();
    await this.ledger.insert({
      id: transactionId,
      paymentId: request.paymentId,
      status: !approved ? 'processor_declined' : settled ? 'settled' : request.capture ? 'submitted_for_settlement' : 'authorized',
      currency: request.currency,
      amountAuthorized: request.amount,
      amountCaptured: approved && request.capture ? request.amount : 0,
      amountRefunded: 0,
      authorization: result,
      settlesAt,
      createdAt: now,
      updatedAt: now,
    });
    if (approved && behavior === 'dispute' && this.disputes) {
      const opensAt = request.capture ? new Date(now.getTime() + SANDBOX_DISPUTE_DELAY_MS) : null;
      await this.disputes.insert({
        id: `dp${randomHex(6)}`,
        transactionId,
        paymentId: request.paymentId,
        amount: request.amount,
        currency: request.currency,
        reason: 'fraud',
        status: 'open',
        opensAt,
        replyBy: opensAt && new Date(opensAt.getTime() + SANDBOX_DISPUTE_REPLY_MS),
        evidence: [],
        decision: null,
        decidesAt: null,
        createdAt: now,
        updatedAt: opensAt ?? now,
      });
    }
    return result;
  }

  /**
   * A verified bank account's debit, as Braintree's ACH sale: the amount decides as for cards
   * (2000.00–2999.99 declined, 3000.00 unavailable); otherwise it is accepted `settlement_pending`
   * and settles `settleDelayMs` later, when the account says how it ends.
   */
  private async debitBankAccount(request: AuthorizeRequest, paymentMethod: PaymentMethodDetails, behavior: string): Promise<AuthorizeResult> {
    if (!this.bankDebits) return { outcome: 'invalid_payment_method', message: 'This test processor makes no bank debits' };
    if (behavior === 'processor_failure') return unavailable();
    const major = majorUnits(request.amount, request.currency);
    if (major === PROCESSOR_UNAVAILABLE_CODE) return unavailable();
    const transactionId = newTransactionId();
    const now = this.now();
    const result: RecordedAuthorization =
      major >= 2000 && major < 3000
        ? declined(major, transactionId, paymentMethod)
        : { outcome: 'pending', transactionId, paymentMethod, response: { code: '1000', text: 'Approved' } };
    const settlesAt = new Date(now.getTime() + this.bankDebits.settleDelayMs);
    await this.ledger.insert({
      id: transactionId,
      paymentId: request.paymentId,
      status: result.outcome === 'pending' ? 'submitted_for_settlement' : 'processor_declined',
      currency: request.currency,
      amountAuthorized: request.amount,
      amountCaptured: result.outcome === 'pending' ? request.amount : 0,
      amountRefunded: 0,
      authorization: result,
      settlesAt: result.outcome === 'pending' ? settlesAt : null,
      createdAt: now,
      updatedAt: now,
    });
    if (result.outcome === 'pending') {
      const { outcome, returnCode } = bankDebitOutcome(behavior);
      await this.bankDebits.ledger.insert({
        transactionId,
        paymentId: request.paymentId,
        outcome,
        returnCode,
        settlesAt,
        returnsAt: outcome === 'returned' ? new Date(settlesAt.getTime() + this.bankDebits.settleDelayMs) : null,
        createdAt: now,
      });
    }
    return result;
  }

  async capture(request: { transactionId: string; amount: number; currency: string }): Promise<OperationResult> {
    const now = this.now();
    const transaction = await this.ledger.get(request.transactionId);
    if (!transaction) return refused('not_capturable', 'No such transaction');
    if (transaction.status !== 'authorized') {
      return refused('not_capturable', `Cannot submit a ${transaction.status} transaction for settlement`);
    }
    if (!Number.isSafeInteger(request.amount) || request.amount < 1 || request.amount > transaction.amountAuthorized) {
      return refused('not_capturable', 'Settlement amount cannot be more than the authorized amount');
    }
    const moved = await this.ledger.move(
      transaction.id,
      ['authorized'],
      'submitted_for_settlement',
      { amountCaptured: request.amount, settlesAt: this.settlementTime(now) },
      now,
    );
    if (!moved) return refused('not_capturable', 'The transaction changed status meanwhile');
    await this.ledger.settleDue(transaction.id, now);
    const opensAt = new Date(now.getTime() + SANDBOX_DISPUTE_DELAY_MS);
    await this.disputes?.scheduleOpening(transaction.id, opensAt, new Date(opensAt.getTime() + SANDBOX_DISPUTE_REPLY_MS));
    return succeeded(transaction.id, 'Submitted for settlement');
  }

  async void(request: { transactionId: string }): Promise<OperationResult> {
    const now = this.now();
    await this.ledger.settleDue(request.transactionId, now);
    const moved = await this.ledger.move(request.transactionId, ['authorized', 'submitted_for_settlement'], 'voided', {}, now);
    if (!moved) {
      const transaction = await this.ledger.get(request.transactionId);
      return refused('not_voidable', `Cannot void a ${transaction?.status ?? 'missing'} transaction`);
    }
    return succeeded(request.transactionId, 'Voided');
  }

  async refund(request: { transactionId: string; amount: number; currency: string; refundId: string }): Promise<OperationResult> {
    const now = this.now();
    await this.ledger.settleDue(request.transactionId, now);
    const transaction = await this.ledger.get(request.transactionId);
    if (!transaction) return refused('not_refundable', 'No such transaction');
    if (transaction.status === 'authorized' || transaction.status === 'submitted_for_settlement') {
      return refused('not_settled', 'Cannot refund a transaction unless it is settled; void it instead');
    }
    if (transaction.status !== 'settled') {
      return refused('not_refundable', `Cannot refund a ${transaction.status} transaction`);
    }
    const outcome = await this.ledger.refund(transaction.id, {
      refundId: request.refundId,
      amount: request.amount,
      at: now,
      refundTransactionId: newTransactionId(),
    });
    if (outcome.result === 'refused') {
      return refused('not_refundable', 'Refund amount is too large');
    }
    return succeeded(outcome.refundTransactionId, 'Refunded');
  }

  async findByPaymentId(request: { paymentId: string }): Promise<FoundTransaction> {
    const found = await this.ledger.findByPaymentId(request.paymentId);
    if (!found) return { found: false };
    await this.ledger.settleDue(found.id, this.now());
    const current: SandboxTransaction = (await this.ledger.get(found.id)) ?? found;
    const refunds = await this.ledger.refundsOf(current.id);
    return {
      found: true,
      authorization: current.authorization,
      status: current.status,
      amountCaptured: current.status === 'voided' ? 0 : current.amountCaptured,
      voided: current.status === 'voided',
      refunds: refunds.map((refund) => ({ refundId: refund.refundId, processorRefundId: refund.refundTransactionId, amount: refund.amount })),
    };
  }

  async acceptDispute(request: { disputeId: string }): Promise<DisputeOperationResult> {
    const dispute = await this.openedDispute(request.disputeId);
    if (!dispute) return { outcome: 'refused', message: 'Dispute not found' };
    if (!(await this.disputes!.move(dispute.id, ['open'], 'accepted', {}, this.now()))) {
      return { outcome: 'refused', message: `Disputes can only be accepted when they are in an Open state (it is ${dispute.status})` };
    }
    return { outcome: 'succeeded', evidenceId: null };
  }

  async addDisputeEvidence(request: { disputeId: string; evidence: DisputeEvidenceUpload }): Promise<DisputeOperationResult> {
    const dispute = await this.openedDispute(request.disputeId);
    if (!dispute) return { outcome: 'refused', message: 'Dispute not found' };
    const { evidence } = request;
    const id = `ev${randomHex(6)}`;
    const added = await this.disputes!.addEvidence(
      dispute.id,
      { id, kind: evidence.kind, text: evidence.kind === 'text' ? evidence.text : null, name: evidence.kind === 'file' ? evidence.name : null },
      this.now(),
    );
    if (!added) return { outcome: 'refused', message: `Evidence can only be attached to disputes that are in an Open state (it is ${dispute.status})` };
    return { outcome: 'succeeded', evidenceId: id };
  }

  async finalizeDispute(request: { disputeId: string }): Promise<DisputeOperationResult> {
    const dispute = await this.openedDispute(request.disputeId);
    if (!dispute) return { outcome: 'refused', message: 'Dispute not found' };
    const texts = dispute.evidence.map((item) => item.text?.trim());
    // As Braintree's sandbox: the winning text wins, the losing text loses, anything else stays under review.
    const decision = texts.includes(WINNING_EVIDENCE) ? 'won' : texts.includes(LOSING_EVIDENCE) ? 'lost' : null;
    const now = this.now();
    const moved = await this.disputes!.move(
      dispute.id,
      ['open'],
      'disputed',
      {
        decision,
        decidesAt: decision && new Date(now.getTime() + SANDBOX_DISPUTE_DELAY_MS),
      },
      now,
    );
    if (!moved) return { outcome: 'refused', message: `Disputes can only be finalized when they are in an Open state (it is ${dispute.status})` };
    return { outcome: 'succeeded', evidenceId: null };
  }

  async searchDisputes(request: { scope: Scope; receivedSince: Date }): Promise<ProcessorDispute[]> {
    if (!this.disputes) return [];
    const now = this.now();
    await this.disputes.decideDue(now);
    return (await this.disputes.listOpened(request.scope, request.receivedSince, now)).map(reportOf);
  }

  /** The dispute the bank has opened by now (with its due decision shown), or null. */
  private async openedDispute(id: string): Promise<SandboxDispute | null> {
    if (!this.disputes) return null;
    const now = this.now();
    await this.disputes.decideDue(now);
    const dispute = await this.disputes.get(id);
    return dispute?.opensAt && dispute.opensAt <= now ? dispute : null;
  }

  private settlementTime(from: Date): Date {
    return new Date(from.getTime() + this.settlement.delayMs);
  }

  private async resolveNonce(nonce: string): Promise<{
    paymentMethod: PaymentMethodDetails;
    behavior: SandboxCardBehavior;
    threeDSecure?: SandboxNonceThreeDSecure | null;
    local?: boolean;
  } | null> {
    if (nonce === FAKE_US_BANK_ACCOUNT_NONCE) {
      const usBankAccount = {
        bankName: TEST_BANK_NAME,
        last4: '0000',
        routingNumber: '011000015',
        accountType: 'checking',
        accountHolderType: 'personal',
      } as const;
      return {
        behavior: 'ach_settles',
        paymentMethod: { type: 'us_bank_account', brand: null, last4: '0000', expMonth: null, expYear: null, fingerprint: null, usBankAccount },
      };
    }
    const fake = fakeNonces.get(nonce);
    if (fake) {
      if (fake.behavior === 'invalid') return null;
      if (fake.local) {
        return {
          behavior: fake.behavior,
          local: true,
          paymentMethod: { type: 'card', brand: null, last4: null, expMonth: null, expYear: null, fingerprint: null },
        };
      }
      const type = fake.type ?? 'card';
      const card = type === 'card' || type === 'apple_pay';
      return {
        behavior: fake.behavior,
        threeDSecure: fake.threeDSecure ?? null,
        paymentMethod: {
          type,
          brand: fake.brand,
          last4: fake.last4,
          expMonth: card ? 12 : null,
          expYear: card ? 2030 : null,
          fingerprint: null,
          ...(fake.payerEmail ? { payerEmail: fake.payerEmail } : {}),
          ...(fake.username ? { username: fake.username } : {}),
        },
      };
    }
    return this.vault.take(nonce, this.now());
  }
}

/**
 * A transaction's id, as Braintree's are: lowercase, short, random. Braintree's eight characters
 * are unique on its side; eight hex characters here (32 bits) met again after some tens of
 * thousands of transactions (a 500 for the shopper whose id was taken), so 64 bits.
 */
function newTransactionId(): string {
  return randomHex(8);
}

function reportOf(dispute: SandboxDispute): ProcessorDispute {
  return {
    processorDisputeId: dispute.id,
    transactionId: dispute.transactionId,
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: disputeStatuses[dispute.status],
    replyBy: dispute.replyBy,
    receivedAt: dispute.opensAt!,
  };
}

function declined(code: number, transactionId: string, paymentMethod: PaymentMethodDetails): RecordedAuthorization {
  const { declineCode, ...response } = describeDecline(code);
  return { outcome: 'declined', declineCode, transactionId, paymentMethod, response };
}

function unavailable(): AuthorizeResult {
  return {
    outcome: 'unavailable',
    response: { code: String(PROCESSOR_UNAVAILABLE_CODE), text: 'Processor Network Unavailable - Try Again' },
  };
}

function succeeded(transactionId: string, text: string): OperationResult {
  return { outcome: 'succeeded', transactionId, response: { code: '1000', text } };
}

function refused(reason: Extract<OperationResult, { outcome: 'refused' }>['reason'], message: string): OperationResult {
  return { outcome: 'refused', reason, message, response: null };
}

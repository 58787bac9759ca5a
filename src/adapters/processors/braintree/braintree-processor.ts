import braintree from 'braintree';
import { fromDecimalString, toDecimalString } from '../../../domain/shared/money';
import type { BraintreeSettings, ProcessorConnectionCheck, ProcessorProblem } from '../../../domain/processors/processor-config';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  FoundTransaction,
  OperationResult,
  ProcessorLifecycle,
  AuthorizeRequest,
  AuthorizeResult,
  PaymentProcessor,
  DisputeEvidenceUpload,
  DisputeOperationResult,
  ProcessorDispute,
  ProcessorNotification,
  LocalPaymentReport,
  BankDebitReport,
  SavePaymentMethodRequest,
  SavePaymentMethodResult,
} from '../../../domain/processors/ports';
import type { DisputeStatus } from '../../../domain/disputes/state-machine';
import { threeDSecurePolicy } from '../../../domain/processors/three-d-secure-policy';
import { bankOfBic } from '../../../domain/payments/local-payment-methods';
import {
  achReturnCodeOf,
  authorizationOf,
  bankVaultOutcome,
  saleOutcome,
  thrownOutcome,
  vaultOutcome,
  type VaultResult,
  type BraintreeResult,
  type BraintreeTransaction,
} from './braintree-outcomes';

/** How long one gateway call may take before its outcome counts as unknown. */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 20_000;

export interface BraintreeOptions {
  timeoutMs?: number;
}

const environments: Record<BraintreeSettings['environment'], braintree.Environment> = {
  sandbox: braintree.Environment.Sandbox,
  production: braintree.Environment.Production,
  // The SDK's development environment: http://GATEWAY_HOST:GATEWAY_PORT (localhost:3000 by default).
  development: braintree.Environment.Development,
};

/** A Braintree SDK gateway for one set of credentials. */
export function braintreeGateway(settings: BraintreeSettings, options: BraintreeOptions = {}): braintree.BraintreeGateway {
  const gateway = new braintree.BraintreeGateway({
    environment: environments[settings.environment],
    merchantId: settings.merchantId,
    publicKey: settings.publicKey,
    privateKey: settings.privateKey,
  });
  // The SDK waits 60 s by default; a shopper should not. Its Config has no public setter.
  (gateway as unknown as { config: { timeout: number } }).config.timeout = options.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  return gateway;
}

/** Statuses of a sale whose amount was submitted for settlement: that amount is captured. */
const capturedStatuses = new Set(['submitted_for_settlement', 'settling', 'settlement_pending', 'settlement_confirmed', 'settled']);

type OperationResponse = { code: string; text: string } | null;

/** Validation errors of follow-up operations, and why the domain should care. */
const refusalCodes: Record<string, Extract<OperationResult, { outcome: 'refused' }>['reason']> = {
  '91506': 'not_settled', // Cannot refund transaction unless it is settled
  '91507': 'not_capturable', // Cannot submit for settlement unless status is authorized
  '91504': 'not_voidable', // Transaction can only be voided if status is authorized, submitted_for_settlement…
  '91512': 'not_refundable', // Transaction has already been completely refunded
  '91521': 'not_refundable', // Refund amount is too large
  '91522': 'not_capturable', // Settlement amount is too large
};

/**
 * Braintree behind the processor port: client tokens for the checkout page, `transaction.sale`
 * with a nonce from braintree-web, and the lifecycle calls. It only reports what Braintree said;
 * the domain decides our states.
 */
export class BraintreeProcessor implements PaymentProcessor, ProcessorLifecycle {
  readonly name = 'braintree';
  private readonly gateway: braintree.BraintreeGateway;

  constructor(
    private readonly settings: BraintreeSettings,
    options: BraintreeOptions = {},
  ) {
    this.gateway = braintreeGateway(settings, options);
  }

  get requiresCvcForSavedCards(): boolean {
    return this.settings.requireCvvForSavedCards;
  }

  /**
   * With the session's customer (who has cards saved here), the client token is scoped to that
   * Braintree customer, as the vault manager and a saved card's CVV-only tokenization expect.
   */
  async clientConfiguration(context?: { currency: string; customerId?: string | null }): Promise<Record<string, unknown>> {
    const merchantAccountId = context ? this.merchantAccountFor(context.currency) : undefined;
    const googlePayAvailable = this.settings.environment !== 'production' || this.settings.googlePayMerchantId !== null;
    const common = {
      tokenize: 'client',
      threeDSecure: { required: this.settings.requireThreeDSecure },
      savedCardCvc: this.settings.requireCvvForSavedCards,
      googlePay: googlePayAvailable
        ? {
            environment: this.settings.environment === 'production' ? 'PRODUCTION' : 'TEST',
            merchantId: this.settings.googlePayMerchantId,
          }
        : null,
    };
    if (merchantAccountId === null) return { ...common, clientToken: null, unavailable: 'merchant_account_missing' };
    try {
      const result = (await this.gateway.clientToken.generate({
        ...(merchantAccountId ? { merchantAccountId } : {}),
        ...(context?.customerId ? { customerId: context.customerId } : {}),
      })) as unknown as { success: boolean; clientToken?: string };
      if (!result.success || !result.clientToken) return { ...common, clientToken: null, unavailable: 'gateway' };
      // braintree-web's local-payment names the merchant account its payment is made in (the session's currency's).
      return { ...common, clientToken: result.clientToken, ...(merchantAccountId ? { merchantAccountId } : {}) };
    } catch {
      // The page says the processor is unavailable instead of failing to load at all.
      return { ...common, clientToken: null, unavailable: 'gateway' };
    }
  }

  async authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
    const merchantAccountId = this.merchantAccountFor(request.currency);
    if (merchantAccountId === null) {
      return {
        outcome: 'unavailable',
        response: { code: 'merchant_account_missing', text: `No Braintree merchant account is set for ${request.currency}` },
      };
    }
    const policy = threeDSecurePolicy({
      mode: request.threeDSecureMode ?? 'when_required',
      accountRequires: this.settings.requireThreeDSecure,
      paymentMethodType: request.paymentMethodType ?? 'card',
    });
    try {
      const result = (await this.gateway.transaction.sale({
        amount: toDecimalString(request.amount, request.currency),
        // A vaulted card is charged by its token; a merchant-initiated charge says so, as Braintree
        // asks of charges made without the shopper present.
        // A saved card's CVC typed again travels as a CVV-only nonce beside the token.
        ...(request.paymentMethodToken
          ? { paymentMethodToken: request.paymentMethodToken, ...(request.cvcNonce ? { paymentMethodNonce: request.cvcNonce } : {}) }
          : { paymentMethodNonce: request.nonce }),
        ...(request.merchantInitiated ? { transactionSource: request.recurring ? 'recurring' : 'unscheduled' } : {}),
        orderId: request.paymentId,
        ...(merchantAccountId ? { merchantAccountId } : {}),
        ...(request.deviceData ? { deviceData: request.deviceData } : {}),
        // A vaulted card's sale belongs to its Braintree customer already.
        ...(request.email && !request.paymentMethodToken ? { customer: { email: request.email } } : {}),
        options: {
          submitForSettlement: request.capture,
          ...(policy.requireInSale && !request.merchantInitiated ? { threeDSecure: { required: true } } : {}),
        },
      } as braintree.TransactionRequest)) as unknown as BraintreeResult;
      return saleOutcome(result);
    } catch (error) {
      return thrownOutcome(error);
    }
  }

  /**
   * Vaults the nonce's card for the customer with `paymentMethod.create` and card verification
   * (`verifyCard`), making the Braintree customer (our `cus_…` id) first when it has none. A failed
   * verification is a decline; a thrown call or other validation error leaves nothing usable.
   */
  async savePaymentMethod(request: SavePaymentMethodRequest): Promise<SavePaymentMethodResult> {
    try {
      const verificationAccount = request.currency ? this.merchantAccountFor(request.currency) : undefined;
      if (verificationAccount === null) {
        return { outcome: 'unavailable', response: { code: 'merchant_account_missing', text: `No Braintree merchant account is set for ${request.currency}` } };
      }
      const made = await this.ensureCustomer(request.customerId, request.email);
      if (made) return made;
      // A US bank account is verified by Braintree's network check (its sale needs a verified one); a card by verifyCard.
      const bankAccount = request.paymentMethodType === 'us_bank_account';
      const result = (await this.gateway.paymentMethod.create({
        customerId: request.customerId,
        paymentMethodNonce: request.nonce,
        ...(request.deviceData ? { deviceData: request.deviceData } : {}),
        options: {
          ...(bankAccount ? { usBankAccountVerificationMethod: 'network_check' } : { verifyCard: true }),
          ...(verificationAccount ? { verificationMerchantAccountId: verificationAccount } : {}),
        },
      } as braintree.PaymentMethodCreateRequest)) as unknown as VaultResult;
      return bankAccount ? bankVaultOutcome(result) : vaultOutcome(result);
    } catch (error) {
      const thrown = thrownOutcome(error);
      // An unknown vaulting keeps nothing on our side; a card vaulted meanwhile is never charged.
      return { outcome: 'unavailable', response: thrown.outcome === 'unavailable' ? thrown.response : { code: 'unknown', text: thrown.reason } };
    }
  }

  async deletePaymentMethod(request: { token: string }): Promise<'deleted' | 'missing'> {
    try {
      await this.gateway.paymentMethod.delete(request.token);
      return 'deleted';
    } catch (error) {
      if ((error as { type?: string })?.type === 'notFoundError') return 'missing';
      throw error;
    }
  }

  /** Makes the Braintree customer `id` when there is none; answers a refusal to save, or null. */
  private async ensureCustomer(id: string, email: string | null): Promise<SavePaymentMethodResult | null> {
    try {
      await this.gateway.customer.find(id);
      return null;
    } catch (error) {
      if ((error as { type?: string })?.type !== 'notFoundError') throw error;
    }
    const created = (await this.gateway.customer.create({ id, ...(email ? { email } : {}) })) as unknown as { success: boolean; message?: string };
    if (created.success) return null;
    return { outcome: 'unavailable', response: { code: 'customer', text: created.message ?? 'The Braintree customer could not be made' } };
  }

  async capture(request: { transactionId: string; amount: number; currency: string }): Promise<OperationResult> {
    return this.operation(() => this.gateway.transaction.submitForSettlement(request.transactionId, toDecimalString(request.amount, request.currency)));
  }

  async void(request: { transactionId: string }): Promise<OperationResult> {
    return this.operation(() => this.gateway.transaction.void(request.transactionId));
  }

  async refund(request: { transactionId: string; amount: number; currency: string; refundId: string }): Promise<OperationResult> {
    return this.operation(() =>
      this.gateway.transaction.refund(request.transactionId, {
        amount: toDecimalString(request.amount, request.currency),
        orderId: request.refundId,
      } as never),
    );
  }

  async findByPaymentId(request: { paymentId: string }): Promise<FoundTransaction> {
    const found = await new Promise<BraintreeTransaction[]>((resolve, reject) => {
      const transactions: BraintreeTransaction[] = [];
      const stream = this.gateway.transaction.search((search) => {
        search.orderId().is(request.paymentId);
      }) as unknown as NodeJS.ReadableStream;
      stream.on('data', (transaction: BraintreeTransaction) => transactions.push(transaction));
      stream.on('error', reject);
      stream.on('end', () => resolve(transactions));
    });
    // Refunds carry their own order id; the payment is the sale.
    const sale = found.filter((t) => (t.type ?? 'sale') === 'sale').sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))[0];
    if (!sale) return { found: false };
    const currency = sale.currencyIsoCode ?? 'USD';
    const refunds = await Promise.all(
      (sale.refundIds ?? []).map(async (id) => {
        const refund = (await this.gateway.transaction.find(id)) as unknown as BraintreeTransaction;
        return { refundId: refund.orderId ?? null, processorRefundId: refund.id, amount: fromDecimalString(refund.amount ?? '0', currency) };
      }),
    );
    return {
      found: true,
      authorization: authorizationOf(sale),
      status: sale.status,
      amountCaptured: capturedStatuses.has(sale.status) ? fromDecimalString(sale.amount ?? '0', currency) : 0,
      voided: sale.status === 'voided',
      refunds,
    };
  }

  async acceptDispute(request: { disputeId: string }): Promise<DisputeOperationResult> {
    return this.disputeOperation(() => this.gateway.dispute.accept(request.disputeId));
  }

  async addDisputeEvidence(request: { disputeId: string; evidence: DisputeEvidenceUpload }): Promise<DisputeOperationResult> {
    const { evidence } = request;
    if (evidence.kind === 'text') {
      return this.disputeOperation(() =>
        this.gateway.dispute.addTextEvidence(request.disputeId, {
          content: evidence.text,
          ...(evidence.category ? { category: evidence.category } : {}),
        } as never),
      );
    }
    // A file goes up first as a document, then is attached to the dispute by its id. The SDK reads
    // the file from disk by its stream's path (and names its type by the extension), so it is
    // written to a private temporary folder for the upload and removed after.
    const folder = await mkdtemp(path.join(tmpdir(), 'tillpoint-evidence-'));
    const uploaded = await this.disputeOperation(async () => {
      const file = path.join(folder, `evidence${evidenceExtensions[evidence.contentType] ?? ''}`);
      await writeFile(file, evidence.content, { mode: 0o600 });
      // The SDK has this gateway; its type declarations do not.
      const documents = (this.gateway as unknown as { documentUpload: { create(request: unknown): Promise<unknown> } }).documentUpload;
      const result = (await documents.create({ kind: 'evidence_document', file: createReadStream(file) })) as unknown as {
        success: boolean;
        documentUpload?: { id: string };
        message?: string;
      };
      return result.success ? { success: true, evidence: { id: result.documentUpload!.id } } : result;
    }).finally(() => rm(folder, { recursive: true, force: true }));
    if (uploaded.outcome !== 'succeeded') return uploaded;
    return this.disputeOperation(() =>
      this.gateway.dispute.addFileEvidence(request.disputeId, {
        documentId: uploaded.evidenceId!,
        ...(evidence.category ? { category: evidence.category } : {}),
      } as never),
    );
  }

  async finalizeDispute(request: { disputeId: string }): Promise<DisputeOperationResult> {
    return this.disputeOperation(() => this.gateway.dispute.finalize(request.disputeId));
  }

  async searchDisputes(request: { receivedSince: Date }): Promise<ProcessorDispute[]> {
    const since = request.receivedSince.toISOString().slice(0, 10);
    const found = await new Promise<BraintreeDispute[]>((resolve, reject) => {
      const disputes: BraintreeDispute[] = [];
      const stream = this.gateway.dispute.search((search) => {
        // DisputeSearch has receivedDate; the SDK's type declarations list only status.
        (search as unknown as { receivedDate(): { min(value: string): void } }).receivedDate().min(since);
      }) as unknown as NodeJS.ReadableStream;
      stream.on('data', (dispute: BraintreeDispute) => disputes.push(dispute));
      stream.on('error', reject);
      stream.on('end', () => resolve(disputes));
    });
    return found.map(disputeReport);
  }

  async parseNotification(request: { signature: string; payload: string }): Promise<ProcessorNotification> {
    let notification: { kind: string; dispute?: BraintreeDispute; transaction?: BraintreeTransaction } & BraintreeLocalPaymentNotification;
    try {
      notification = (await this.gateway.webhookNotification.parse(request.signature, request.payload)) as unknown as typeof notification;
    } catch (error) {
      const type = (error as { type?: string })?.type;
      if (type === 'invalidSignatureError' || type === 'invalidChallengeError') {
        return { verified: false, reason: error instanceof Error ? error.message : String(error) };
      }
      // Signed, but not a notification the SDK can read.
      return { verified: false, reason: 'the payload could not be read' };
    }
    return {
      verified: true,
      kind: notification.kind,
      dispute: notification.kind.startsWith('dispute_') && notification.dispute ? disputeReport(notification.dispute) : null,
      localPayment: localPaymentReport(notification),
      bankDebit: bankDebitReport(notification),
    };
  }

  /** null: the merchant set accounts, but none for this currency; undefined: use the default account. */
  private merchantAccountFor(currency: string): string | null | undefined {
    const accounts = this.settings.merchantAccounts;
    if (Object.keys(accounts).length === 0) return undefined;
    return accounts[currency.toUpperCase()] ?? null;
  }

  private async disputeOperation(call: () => Promise<unknown>): Promise<DisputeOperationResult> {
    let result: { success: boolean; message?: string; evidence?: { id?: string } };
    try {
      result = (await call()) as typeof result;
    } catch (error) {
      const thrown = thrownOutcome(error);
      if (thrown.outcome === 'unknown') return thrown;
      if (thrown.response.code === 'notFoundError') return { outcome: 'refused', message: 'Braintree has no such dispute' };
      return { outcome: 'unavailable', message: thrown.response.text };
    }
    if (result.success) return { outcome: 'succeeded', evidenceId: result.evidence?.id ?? null };
    // Validation errors: the dispute is not in a state that takes this (e.g. accept when not open).
    return { outcome: 'refused', message: result.message ?? 'Refused' };
  }

  private async operation(call: () => Promise<unknown>): Promise<OperationResult> {
    let result: BraintreeResult;
    try {
      result = (await call()) as BraintreeResult;
    } catch (error) {
      const thrown = thrownOutcome(error);
      if (thrown.outcome === 'unknown') return thrown;
      if (thrown.response.code === 'notFoundError') {
        return { outcome: 'refused', reason: 'declined', message: 'Braintree has no such transaction', response: thrown.response };
      }
      return thrown;
    }
    if (result.success && result.transaction) {
      return { outcome: 'succeeded', transactionId: result.transaction.id, response: responseOf(result.transaction) };
    }
    if (result.transaction) {
      return { outcome: 'refused', reason: 'declined', message: result.message ?? 'Declined', response: responseOf(result.transaction) };
    }
    const errors = result.errors?.deepErrors() ?? [];
    for (const error of errors) {
      const reason = refusalCodes[String(error.code)];
      if (reason) return { outcome: 'refused', reason, message: error.message, response: { code: String(error.code), text: error.message } };
    }
    const first = errors[0];
    return { outcome: 'unavailable', response: first ? { code: String(first.code), text: first.message } : null };
  }
}

/** The parts of the SDK's local payment notifications we read. */
interface BraintreeLocalPaymentNotification {
  localPaymentCompleted?: {
    paymentId?: string | null;
    paymentMethodNonce?: string | null;
    bic?: string | null;
    ibanLastChars?: string | null;
    transaction?: { id?: string | null } | null;
  };
  localPaymentExpired?: { paymentId?: string | null };
  localPaymentReversed?: { paymentId?: string | null };
}

/**
 * Braintree's local payment notifications as the domain reads them: completed (the nonce a sale
 * takes, or the transaction made already, and the payer's bank), expired, reversed (the money given
 * back: no transaction took it in time). Null for any other kind.
 */
function localPaymentReport(notification: { kind: string } & BraintreeLocalPaymentNotification): LocalPaymentReport | null {
  const completed = notification.localPaymentCompleted;
  if (notification.kind === 'local_payment_completed' && completed?.paymentId) {
    const bic = completed.bic ?? null;
    const ibanLast4 = completed.ibanLastChars ? completed.ibanLastChars.slice(-4) : null;
    return {
      kind: 'completed',
      processorPaymentId: completed.paymentId,
      nonce: completed.paymentMethodNonce ?? null,
      transactionId: completed.transaction?.id ?? null,
      bank: bic || ibanLast4 ? { name: bankOfBic(bic), bic, ibanLast4 } : null,
    };
  }
  const expired = notification.localPaymentExpired?.paymentId;
  if (notification.kind === 'local_payment_expired' && expired) return { kind: 'expired', processorPaymentId: expired };
  const reversed = notification.localPaymentReversed?.paymentId;
  if (notification.kind === 'local_payment_reversed' && reversed) return { kind: 'reversed', processorPaymentId: reversed };
  return null;
}

/**
 * Braintree's transaction notifications (sent for ACH sales) as the domain reads them:
 * `TRANSACTION_SETTLED`, and `TRANSACTION_SETTLEMENT_DECLINED` — before the settlement, or after it
 * when the bank returns the debit — with the return code the transaction carries. Null for any other kind.
 */
function bankDebitReport(notification: { kind: string; transaction?: BraintreeTransaction }): BankDebitReport | null {
  const transaction = notification.transaction;
  if (!transaction?.id) return null;
  if (notification.kind === 'transaction_settled')
    return { kind: 'settled', transactionId: transaction.id, paymentId: transaction.orderId ?? null, returnCode: null };
  if (notification.kind === 'transaction_settlement_declined') {
    return { kind: 'declined', transactionId: transaction.id, paymentId: transaction.orderId ?? null, returnCode: achReturnCodeOf(transaction) };
  }
  return null;
}

/** The extension by which the SDK names an evidence file's type. */
const evidenceExtensions: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'application/pdf': '.pdf' };

/** The parts of a Braintree SDK dispute we read. */
interface BraintreeDispute {
  id: string;
  status: string;
  reason?: string | null;
  amountDisputed?: string | null;
  amount?: string | null;
  currencyIsoCode?: string | null;
  replyByDate?: string | null;
  receivedDate?: string | null;
  transaction?: { id: string } | null;
}

/** Braintree's dispute statuses → ours. */
const disputeStatuses: Record<string, DisputeStatus> = {
  open: 'needs_response',
  disputed: 'under_review',
  under_review: 'under_review',
  won: 'won',
  lost: 'lost',
  accepted: 'accepted',
  auto_accepted: 'accepted',
  expired: 'expired',
};

/** A Braintree dispute as the domain reads reports. Its dates are days: the reply-by day ends at its last second (UTC). */
function disputeReport(dispute: BraintreeDispute): ProcessorDispute {
  const currency = dispute.currencyIsoCode ?? 'USD';
  const day = (value: string | null | undefined, time: string) => (value ? new Date(`${value.slice(0, 10)}T${time}Z`) : null);
  return {
    processorDisputeId: dispute.id,
    transactionId: dispute.transaction?.id ?? '',
    amount: fromDecimalString(dispute.amountDisputed ?? dispute.amount ?? '0', currency),
    currency,
    reason: dispute.reason ?? 'general',
    status: disputeStatuses[dispute.status] ?? 'under_review',
    replyBy: day(dispute.replyByDate, '23:59:59'),
    receivedAt: day(dispute.receivedDate, '00:00:00') ?? new Date(0),
  };
}

function responseOf(transaction: BraintreeTransaction): OperationResponse {
  return transaction.processorResponseCode ? { code: transaction.processorResponseCode, text: transaction.processorResponseText ?? '' } : null;
}

/** `tillpoint processor check`: a client token per merchant account says whether the setup works. */
export function braintreeConnectionCheck(options: BraintreeOptions = {}): ProcessorConnectionCheck {
  return {
    async check(settings) {
      const gateway = braintreeGateway(settings, options);
      const problems: ProcessorProblem[] = [];
      const targets: Array<{ currency?: string; merchantAccountId?: string }> = Object.entries(settings.merchantAccounts).map(
        ([currency, merchantAccountId]) => ({ currency, merchantAccountId }),
      );
      if (targets.length === 0) targets.push({});
      for (const target of targets) {
        try {
          const result = (await gateway.clientToken.generate(
            target.merchantAccountId ? { merchantAccountId: target.merchantAccountId } : {},
          )) as unknown as BraintreeResult & { clientToken?: string };
          if (!result.success) {
            problems.push({
              kind: 'merchant_account_missing',
              currency: target.currency,
              message: `Braintree does not know merchant account '${target.merchantAccountId}' for ${target.currency}: ${result.message ?? 'invalid'}. Check the id under Account → Merchant Account Info in the Control Panel`,
            });
          }
        } catch (error) {
          problems.push(describeThrown(error, settings));
          break; // the same failure would repeat for every currency
        }
      }
      return problems;
    },
  };
}

function describeThrown(error: unknown, settings: BraintreeSettings): ProcessorProblem {
  const type = (error as { type?: string })?.type;
  const where = `the Braintree ${settings.environment} gateway`;
  if (type === 'authenticationError') {
    return {
      kind: 'authentication',
      message: `${where} rejected the public/private key pair: check both keys and that they belong to the ${settings.environment} environment`,
    };
  }
  if (type === 'authorizationError') {
    return {
      kind: 'authorization',
      message: `${where} accepted the keys but refused the call: the API user lacks a permission, or the merchant id '${settings.merchantId}' is not the keys' merchant`,
    };
  }
  if (type === 'notFoundError') {
    return { kind: 'authorization', message: `${where} does not know merchant id '${settings.merchantId}'` };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (type === 'unexpectedError' || type === 'serviceUnavailableError' || type === 'gatewayTimeoutError' || type === 'serverError') {
    return { kind: 'unreachable', message: `${where} could not be reached or did not answer (${message})` };
  }
  return { kind: 'unexpected', message: `${where} answered unexpectedly: ${message}` };
}

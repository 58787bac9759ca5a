import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Braintree's gateway, for tests only. It speaks the part of the XML API that the
 * real `braintree` SDK uses for our calls (client token, sale, find, search, void, refund, submit for
 * settlement) and follows the sandbox's documented rules: amounts 2000.00–2999.99 decline with
 * that processor response code, 3000.00 fails, fake nonces (`fake-valid-nonce`,
 * `fake-processor-declined-visa-nonce`, `fake-android-pay-visa-nonce`…), CVV 200 / postal code
 * 20000 trip the CVV / AVS rules, a repeated charge trips the duplicate rule, a sale that
 * requires 3-D Secure without it is rejected, and 2099.00 (issuer asks for authentication) approves
 * once the nonce carries a successful 3-D Secure authentication. The SDK reaches it through its Development
 * environment (http://localhost:GATEWAY_PORT).
 *
 * Its vault: `customer.find` / `customer.create`, `paymentMethod.create` (with `verifyCard`, a card
 * whose nonce declines fails verification with its processor response), `paymentMethod.delete`, and
 * sales by `payment_method_token`; 4000 0000 0000 0341 vaults, then each of its sales declines.
 */

export interface EmulatorCredentials {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** Merchant account id → currency. The first is the default account. */
  merchantAccounts: Record<string, string>;
}

interface Card {
  kind: 'credit_card' | 'android_pay_card' | 'apple_pay_card' | 'paypal_account' | 'venmo_account' | 'local_payment' | 'us_bank_account';
  /** A US bank account's (ACH): what braintree-web's `us-bank-account` tokenized; never the account number, its last 4 digits. */
  usBankAccount?: EmulatedBankAccount;
  /** A local payment's: its method (`ideal`…) and Braintree's id of it. */
  localPayment?: { fundingSource: string | null; paymentId: string | null };
  payerEmail?: string;
  username?: string;
  cardType: string;
  last4: string;
  bin: string;
  expirationMonth: string;
  expirationYear: string;
  cvv?: string;
  postalCode?: string;
  /** A fake nonce that always ends the same way, whatever the amount. */
  forced?: { status: 'processor_declined' | 'failed'; code: string } | { status: 'gateway_rejected'; reason: string };
  /** A vaulted US bank account whose network check verified it: only such an account is debited. */
  bankAccountVerified?: boolean;
  /** Verified and vaulted as any card, then every sale of it declined with this processor response (4000 0000 0000 0341). */
  salesDecline?: string;
  threeDSecure?: { status: string; liabilityShifted: boolean };
  uniqueNumberIdentifier: string;
}

/** A US bank account as the emulator keeps it from its tokenization (braintree-web's GraphQL mutation). */
export interface EmulatedBankAccount {
  routingNumber: string;
  last4: string;
  accountType: 'checking' | 'savings';
  ownershipType: 'personal' | 'business';
  accountHolderName: string;
  bankName: string;
  achMandate: string;
  /** What the account does: Braintree's sandbox network check numbers, and ours for a return. */
  behavior: {
    verification: 'verified' | 'failed' | 'processor_declined';
    code: string;
    settles: 'settles' | 'returned' | 'declined';
    returnCode: string | null;
  };
}

/**
 * The sandbox's network check test accounts (any valid routing number): 1000000000 and 1000000001
 * verify (1003 "with risk"), 1000000002 finds the network down (3000), 1000000004 is declined
 * (2046), any other number is declined (2038). The sandbox has no account whose debit comes back;
 * the emulator gives the test processor's ones (docs/test-processor.md) the same behaviour, so a
 * return runs through the Braintree adapter too: 1000000011 / 1000000012 verify, settle, then are
 * returned R01 / R02; 1000000013 verifies and is declined R01 instead of settling.
 */
function bankAccountBehavior(accountNumber: string): EmulatedBankAccount['behavior'] {
  const verified = (settles: EmulatedBankAccount['behavior']['settles'] = 'settles', returnCode: string | null = null, code = '1000') =>
    ({ verification: 'verified', code, settles, returnCode }) as const;
  switch (accountNumber) {
    case '1000000000':
      return verified();
    case '1000000001':
      return verified('settles', null, '1003');
    case '1000000002':
      return { verification: 'failed', code: '3000', settles: 'settles', returnCode: null };
    case '1000000004':
      return { verification: 'processor_declined', code: '2046', settles: 'settles', returnCode: null };
    case '1000000011':
      return verified('returned', 'R01');
    case '1000000012':
      return verified('returned', 'R02');
    case '1000000013':
      return verified('declined', 'R01');
    default:
      return { verification: 'processor_declined', code: '2038', settles: 'settles', returnCode: null };
  }
}

export interface EmulatedTransaction {
  id: string;
  type: 'sale' | 'credit';
  status: string;
  amount: string;
  currencyIsoCode: string;
  merchantAccountId: string;
  orderId: string | null;
  deviceData: string | null;
  processorResponseCode: string | null;
  processorResponseText: string | null;
  gatewayRejectionReason: string | null;
  card: Card;
  refundedTransactionId: string | null;
  createdAt: string;
  /** The request body as the SDK sent it, for assertions on what we asked for. */
  request: Record<string, any>;
  /** An ACH sale the bank declined or returned: its NACHA code. */
  achReturnCode?: string;
}

const visa = (last4 = '1881', bin = '401288'): Omit<Card, 'uniqueNumberIdentifier'> => ({
  kind: 'credit_card',
  cardType: 'Visa',
  last4,
  bin,
  expirationMonth: '12',
  expirationYear: '2030',
});

/** Braintree's documented fake nonces (the subset we use), by name. */
const fakeNonces: Record<string, Omit<Card, 'uniqueNumberIdentifier'>> = {
  'fake-valid-nonce': visa(),
  'fake-valid-visa-nonce': visa(),
  'fake-valid-mastercard-nonce': { ...visa('4444', '555555'), cardType: 'MasterCard' },
  'fake-valid-amex-nonce': { ...visa('0005', '378282'), cardType: 'American Express' },
  'fake-processor-declined-visa-nonce': { ...visa('0002', '400011'), forced: { status: 'processor_declined', code: '2000' } },
  'fake-processor-failure-visa-nonce': { ...visa('0123', '400011'), forced: { status: 'failed', code: '3000' } },
  'fake-gateway-rejected-fraud-valid-nonce': { ...visa('0001', '400011'), forced: { status: 'gateway_rejected', reason: 'fraud' } },
  'fake-android-pay-visa-nonce': { ...visa('1111', '411111'), kind: 'android_pay_card' },
  'fake-android-pay-mastercard-nonce': { ...visa('4444', '555555'), kind: 'android_pay_card', cardType: 'MasterCard' },
  'fake-apple-pay-visa-nonce': { ...visa('1881', '401288'), kind: 'apple_pay_card', cardType: 'Apple Pay - Visa' },
  'fake-apple-pay-mastercard-nonce': { ...visa('4444', '555555'), kind: 'apple_pay_card', cardType: 'Apple Pay - MasterCard' },
  'fake-paypal-one-time-nonce': { ...visa('', ''), kind: 'paypal_account', payerEmail: 'payer@example.com' },
  'fake-venmo-account-nonce': { ...visa('', ''), kind: 'venmo_account', username: 'venmojoe' },
  'fake-local-payment-method-nonce': { ...visa('', ''), kind: 'local_payment', localPayment: { fundingSource: null, paymentId: null } },
  'fake-us-bank-account-nonce': {
    ...visa('0000', ''),
    cardType: '',
    kind: 'us_bank_account',
    usBankAccount: {
      routingNumber: '011000015',
      last4: '0000',
      accountType: 'checking',
      ownershipType: 'personal',
      accountHolderName: 'Dan Schulman',
      bankName: 'FEDERAL RESERVE BANK',
      achMandate: 'fake',
      behavior: bankAccountBehavior('1000000000'),
    },
  },
  'fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce': {
    ...visa('2701', '400000'),
    threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
  },
  'fake-three-d-secure-two-visa-successful-step-up-authentication-nonce': {
    ...visa('2503', '400000'),
    threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
  },
  'fake-three-d-secure-visa-authentication-unavailable-nonce': {
    ...visa('0002', '400000'),
    threeDSecure: { status: 'authentication_unavailable', liabilityShifted: false },
  },
  'fake-three-d-secure-visa-full-authentication-nonce': {
    ...visa('0002', '400000'),
    threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
  },
  'fake-three-d-secure-visa-failed-authentication-nonce': {
    ...visa('0093', '400000'),
    threeDSecure: { status: 'authenticate_failed', liabilityShifted: false },
  },
};

/**
 * Saved, then declined: the test processor's 4000 0000 0000 0341 (docs/test-processor.md). Braintree's
 * sandbox takes only its own test numbers and has no such card; the emulator gives it the test
 * processor's behaviour, so a renewal failing runs through the Braintree adapter too: verification
 * passes and the card is vaulted, then every sale of it is processor-declined with 2000 (Do Not
 * Honor), as the test processor declines it.
 */
const DECLINES_AFTER_SAVE = '4000000000000341';

const declineTexts: Record<string, string> = {
  '2000': 'Do Not Honor',
  '2001': 'Insufficient Funds',
  '2004': 'Expired Card',
  '2010': 'Card Issuer Declined CVV',
  '2014': 'Processor Declined - Fraud Suspected',
  '2099': 'Cardholder Authentication Required',
};

/**
 * The sandbox's documented trigger for 2099 (Cardholder Authentication Required) is the amount 2099.00,
 * like every 2000–2999 amount. Emulator rule modelling the issuer: a card whose nonce carries a
 * successful 3-D Secure authentication is not asked again, so the page's verify-and-retry succeeds.
 */
const ISSUER_ASKS_AUTHENTICATION = 2099;

function dasherize(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`).replace(/_/g, '-');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Serializes the way the gateway does: dashed names, typed attributes, nil for null. */
export function toXml(name: string, value: unknown): string {
  const tag = dasherize(name);
  if (value === null || value === undefined) return `<${tag} nil="true"/>`;
  if (typeof value === 'boolean') return `<${tag} type="boolean">${value}</${tag}>`;
  if (typeof value === 'number') return `<${tag} type="integer">${value}</${tag}>`;
  if (Array.isArray(value)) {
    const itemName = name === 'ids' || name.endsWith('Ids') ? 'item' : name.replace(/s$/, '');
    return `<${tag} type="array">${value.map((item) => toXml(itemName, item)).join('')}</${tag}>`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const collection = entries.some(([k]) => k === '@collection');
    const body = entries
      .filter(([k]) => k !== '@collection')
      .map(([k, v]) => (Array.isArray(v) && collection ? v.map((item) => toXml(k, item)).join('') : toXml(k, v)))
      .join('');
    return `<${tag}${collection ? ' type="collection"' : ''}>${body}</${tag}>`;
  }
  return `<${tag}>${escapeXml(String(value))}</${tag}>`;
}

/** A dispute as the gateway keeps it (the fields the SDK's Dispute reads). */
export interface EmulatedDispute {
  id: string;
  transactionId: string;
  status: 'open' | 'accepted' | 'disputed' | 'under_review' | 'won' | 'lost' | 'expired' | 'auto_accepted';
  amountDisputed: string;
  currencyIsoCode: string;
  reason: string;
  receivedDate: string;
  replyByDate: string;
  evidence: Array<{ id: string; comment: string | null; documentUploadId: string | null; category: string | null }>;
}

export class BraintreeGatewayEmulator {
  readonly transactions = new Map<string, EmulatedTransaction>();
  readonly disputes = new Map<string, EmulatedDispute>();
  /** Evidence documents uploaded, by id: their multipart body as received. */
  readonly documents = new Map<string, string>();
  /** Every request, for assertions on what the SDK sent. */
  readonly requests: Array<{ method: string; path: string; body: any }> = [];
  /** braintree-web's GraphQL calls (`graphQL`), the account number masked to its last 4 digits. */
  readonly graphQLRequests: Array<{ query: string; input: Record<string, any> | null }> = [];
  /** The sandbox's risk rules; the merchant turns them on in the Control Panel (duplicate checking is off by default). */
  rules = { cvv: true, avs: true, duplicate: false };
  private nonces = new Map<string, Card & { used: boolean }>();
  /** The vault: Braintree customers by id, and their payment methods by token. */
  readonly customers = new Map<string, { id: string; email: string | null }>();
  readonly vaulted = new Map<string, { token: string; customerId: string; card: Card }>();
  private server: Server | null = null;
  private stall: { ms: number; remaining: number } | null = null;
  private dropRemaining = 0;
  private unavailableRemaining = 0;
  port = 0;

  constructor(readonly credentials: EmulatorCredentials) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Processes the next `count` requests but answers only after `ms` (beyond the SDK's timeout). */
  stallNext(ms: number, count = 1) {
    this.stall = { ms, remaining: count };
  }

  /** Cuts the connection of the next `count` requests without processing them. */
  dropNext(count = 1) {
    this.dropRemaining = count;
  }

  /** Answers the next `count` requests with 503, as the gateway does during an outage. */
  unavailableNext(count = 1) {
    this.unavailableRemaining = count;
  }

  /**
   * What braintree-web's client-side tokenization does against the real gateway: turns card
   * details into a single-use `tokencc_` nonce. Keeps what the sandbox rules read (CVV, postal code).
   */
  tokenizeCard(card: { number: string; expirationMonth?: string; expirationYear?: string; cvv?: string; postalCode?: string }): string {
    const number = card.number.replace(/\D/g, '');
    const cardType = number.startsWith('4') ? 'Visa' : number.startsWith('5') ? 'MasterCard' : number.startsWith('3') ? 'American Express' : 'Discover';
    const nonce = `tokencc_${randomBytes(12).toString('hex')}`;
    this.nonces.set(nonce, {
      kind: 'credit_card',
      cardType,
      last4: number.slice(-4),
      bin: number.slice(0, 6),
      expirationMonth: card.expirationMonth ?? '12',
      expirationYear: card.expirationYear ?? '2030',
      cvv: card.cvv,
      postalCode: card.postalCode,
      uniqueNumberIdentifier: `un_${number.slice(-8)}`,
      ...(number === DECLINES_AFTER_SAVE ? { salesDecline: '2000' } : {}),
      used: false,
    });
    return nonce;
  }

  /**
   * Braintree's GraphQL API as braintree-web 3.79.1's `us-bank-account` calls it (`client.request`
   * with `api: 'graphQLApi'`): the `TokenizeUsBankAccount` mutation with its `input.usBankAccount`
   * (routing and account number, `CHECKING`/`SAVINGS`, the billing address, `individualOwner` or
   * `businessOwner`, and `achMandate`), answered with the nonce and the account's last 4 digits as
   * the gateway does. Kept for assertions (`graphQLRequests`), the account number masked.
   */
  graphQL(body: { query?: string; variables?: { input?: { usBankAccount?: Record<string, any> } } }): Record<string, unknown> {
    const input = body.variables?.input?.usBankAccount;
    this.graphQLRequests.push({
      query: body.query ?? '',
      input: input ? { ...input, accountNumber: input.accountNumber ? `****${String(input.accountNumber).slice(-4)}` : input.accountNumber } : null,
    });
    const error = (message: string) => ({
      errors: [{ message, extensions: { errorClass: 'VALIDATION' } }],
      extensions: { requestId: randomBytes(8).toString('hex') },
    });
    if (!/mutation TokenizeUsBankAccount\(\$input: TokenizeUsBankAccountInput!\)/.test(body.query ?? '') || !input) return error('Unknown operation');
    if (!input.achMandate) return error("Variable 'input' has an invalid value: achMandate is required");
    const routingNumber = String(input.routingNumber ?? '');
    const accountNumber = String(input.accountNumber ?? '');
    if (!/^\d{9}$/.test(routingNumber)) return error('Routing number is invalid');
    if (!/^\d{4,17}$/.test(accountNumber)) return error('Account number is invalid');
    if (!['CHECKING', 'SAVINGS'].includes(input.accountType)) return error('Account type is invalid');
    const business = input.businessOwner?.businessName;
    const person = input.individualOwner ? `${input.individualOwner.firstName ?? ''} ${input.individualOwner.lastName ?? ''}`.trim() : '';
    if (!business && !person) return error('An individualOwner or a businessOwner is required');
    const nonce = `tokenusbankacct_${randomBytes(12).toString('hex')}`;
    this.nonces.set(nonce, {
      ...visa(accountNumber.slice(-4), ''),
      cardType: '',
      kind: 'us_bank_account',
      usBankAccount: {
        routingNumber,
        last4: accountNumber.slice(-4),
        accountType: input.accountType === 'SAVINGS' ? 'savings' : 'checking',
        ownershipType: business ? 'business' : 'personal',
        accountHolderName: business || person,
        bankName: 'FEDERAL RESERVE BANK',
        achMandate: String(input.achMandate),
        behavior: bankAccountBehavior(accountNumber),
      },
      uniqueNumberIdentifier: '',
      used: false,
    });
    return {
      data: { tokenizeUsBankAccount: { paymentMethod: { id: nonce, details: { last4: accountNumber.slice(-4) } } } },
      extensions: { requestId: randomBytes(8).toString('hex') },
    };
  }

  /**
   * Braintree's transaction notifications, sent for ACH: `TRANSACTION_SETTLED` (the sale moves to
   * `settled`) and `TRANSACTION_SETTLEMENT_DECLINED` (to `settlement_declined`, with the NACHA code
   * `returnCode`: before settling, or after, when the bank returns it), signed with the merchant's keys.
   */
  transactionNotification(kind: 'transaction_settled' | 'transaction_settlement_declined', transactionId: string, returnCode: string | null = null) {
    const transaction = this.transactions.get(transactionId);
    if (!transaction) throw new Error(`No transaction ${transactionId}`);
    transaction.status = kind === 'transaction_settled' ? 'settled' : 'settlement_declined';
    if (returnCode) transaction.achReturnCode = returnCode;
    return this.notification(kind, this.transactionXml(transaction));
  }

  /** What Hosted Fields with only the CVV field make: a CVV-only nonce, to go with a vaulted card's token. */
  tokenizeCvv(cvv: string): string {
    const nonce = `tokencc_cvv_${randomBytes(12).toString('hex')}`;
    this.nonces.set(nonce, {
      kind: 'credit_card',
      cardType: '',
      last4: '',
      bin: '',
      expirationMonth: '',
      expirationYear: '',
      cvv,
      uniqueNumberIdentifier: '',
      used: false,
    });
    return nonce;
  }

  /** The bank opens a dispute against a transaction (what the dispute test card makes happen in the sandbox). */
  openDispute(transactionId: string, fields: Partial<EmulatedDispute> = {}): EmulatedDispute {
    const transaction = this.transactions.get(transactionId);
    const dispute: EmulatedDispute = {
      id: `dsp_${randomBytes(4).toString('hex')}`,
      transactionId,
      status: 'open',
      amountDisputed: transaction?.amount ?? '10.00',
      currencyIsoCode: transaction?.currencyIsoCode ?? 'USD',
      reason: 'fraud',
      receivedDate: new Date().toISOString().slice(0, 10),
      replyByDate: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      evidence: [],
      ...fields,
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  /**
   * The shopper's bank completes a local payment (iDEAL…): Braintree makes a single-use nonce for
   * it and posts `LOCAL_PAYMENT_COMPLETED`, signed with the merchant's keys, as the webhook form's
   * two fields. With `transactionId`, the notification carries a transaction made already.
   */
  localPaymentCompleted(options: { paymentId: string; fundingSource: string; bic?: string; ibanLastChars?: string; transactionId?: string }): {
    nonce: string;
    notification: { bt_signature: string; bt_payload: string };
  } {
    const nonce = `local_payment_${randomBytes(12).toString('hex')}`;
    this.nonces.set(nonce, {
      ...visa('', ''),
      kind: 'local_payment',
      localPayment: { fundingSource: options.fundingSource, paymentId: options.paymentId },
      uniqueNumberIdentifier: '',
      used: false,
    });
    const transaction = options.transactionId ? this.transactions.get(options.transactionId) : undefined;
    const subject = toXml('localPayment', {
      bic: options.bic ?? null,
      ibanLastChars: options.ibanLastChars ?? null,
      payerId: 'PAYER-EMULATED',
      payerName: 'Test Shopper',
      paymentId: options.paymentId,
      paymentMethodNonce: options.transactionId ? null : nonce,
      ...(transaction ? { transaction: { id: transaction.id, status: transaction.status, amount: transaction.amount, orderId: transaction.orderId } } : {}),
    });
    return { nonce, notification: this.notification('local_payment_completed', subject) };
  }

  /** Braintree's `LOCAL_PAYMENT_EXPIRED` (never completed) or `LOCAL_PAYMENT_REVERSED` (completed, no transaction took it in time). */
  localPaymentEnded(kind: 'local_payment_expired' | 'local_payment_reversed', paymentId: string): { bt_signature: string; bt_payload: string } {
    const subject =
      kind === 'local_payment_expired'
        ? toXml('localPaymentExpired', { paymentId, paymentContextId: `ctx_${paymentId}` })
        : toXml('localPaymentReversed', { paymentId });
    return this.notification(kind, subject);
  }

  /** A notification as Braintree posts it: the XML in base64, signed with an HMAC-SHA1 under the SHA-1 of the private key. */
  private notification(kind: string, subject: string): { bt_signature: string; bt_payload: string } {
    const xml = `<notification><timestamp type="datetime">${new Date().toISOString()}</timestamp><kind>${kind}</kind><subject>${subject}</subject></notification>`;
    const payload = `${Buffer.from(xml).toString('base64')}\n`;
    const key = createHash('sha1').update(this.credentials.privateKey).digest();
    const signature = createHmac('sha1', key).update(payload, 'binary').digest('hex');
    return { bt_signature: `${this.credentials.publicKey}|${signature}`, bt_payload: payload };
  }

  /** Moves a transaction to `settled`, like the sandbox's testing.settle. */
  settle(id: string) {
    const transaction = this.transactions.get(id);
    if (transaction) transaction.status = 'settled';
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const multipart = (request.headers['content-type'] ?? '').startsWith('multipart/form-data');
    const body = multipart ? { multipart: raw } : raw ? JSON.parse(raw) : {};
    const path = request.url ?? '';
    this.requests.push({ method: request.method ?? '', path, body });

    if (this.dropRemaining > 0) {
      this.dropRemaining--;
      request.socket.destroy();
      return;
    }
    if (this.unavailableRemaining > 0) {
      this.unavailableRemaining--;
      response.writeHead(503).end();
      return;
    }
    const expected = `Basic ${Buffer.from(`${this.credentials.publicKey}:${this.credentials.privateKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      response.writeHead(401).end();
      return;
    }
    const prefix = `/merchants/${this.credentials.merchantId}/`;
    if (!path.startsWith(prefix)) {
      response.writeHead(403).end();
      return;
    }
    const answer = this.route(request.method ?? 'GET', path.slice(prefix.length), body);
    const send = () => {
      if (response.destroyed) return;
      if (!answer) return response.writeHead(404).end();
      response.writeHead(answer.status, { 'content-type': 'application/xml; charset=utf-8' });
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n${answer.xml}`);
    };
    if (this.stall && this.stall.remaining > 0) {
      this.stall.remaining--;
      setTimeout(send, this.stall.ms).unref();
    } else send();
  }

  private route(method: string, path: string, body: any): { status: number; xml: string } | null {
    const disputeAnswer = this.disputeRoute(method, path, body);
    if (disputeAnswer !== undefined) return disputeAnswer;
    if (method === 'POST' && path === 'client_token') return this.clientToken(body.client_token ?? {});
    if (method === 'POST' && path === 'transactions') return this.sale(body.transaction ?? {});
    const vaultAnswer = this.vaultRoute(method, path, body);
    if (vaultAnswer !== undefined) return vaultAnswer;
    if (method === 'POST' && path === 'transactions/advanced_search_ids') {
      return { status: 200, xml: toXml('searchResults', { pageSize: 50, ids: this.search(body.search).map((t) => t.id) }) };
    }
    if (method === 'POST' && path === 'transactions/advanced_search') {
      const ids: string[] = body.search?.ids ?? [];
      const found = ids.map((id) => this.transactions.get(id)).filter((t): t is EmulatedTransaction => Boolean(t));
      return {
        status: 200,
        xml: toXml('creditCardTransactions', {
          '@collection': true,
          currentPageNumber: 1,
          pageSize: 50,
          totalItems: found.length,
          transaction: found.map((t) => this.transactionXmlValue(t)),
        }),
      };
    }
    const match = /^transactions\/([^/]+)(?:\/(void|refund|submit_for_settlement))?$/.exec(path);
    if (!match) return null;
    const transaction = this.transactions.get(decodeURIComponent(match[1]!));
    if (!transaction) return null;
    if (method === 'GET' && !match[2]) return { status: 200, xml: this.transactionXml(transaction) };
    if (method === 'PUT' && match[2] === 'void') {
      if (!['authorized', 'submitted_for_settlement', 'settlement_pending'].includes(transaction.status)) {
        return this.validationError(
          'transaction',
          'base',
          '91504',
          'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.',
        );
      }
      transaction.status = 'voided';
      return { status: 200, xml: this.transactionXml(transaction) };
    }
    if (method === 'PUT' && match[2] === 'submit_for_settlement') {
      if (transaction.status !== 'authorized') {
        return this.validationError('transaction', 'base', '91507', 'Cannot submit for settlement unless status is authorized.');
      }
      const amount = body.transaction?.amount;
      if (amount !== undefined && amount !== null && Number(amount) > Number(transaction.amount)) {
        return this.validationError('transaction', 'amount', '91522', 'Settlement amount is too large.');
      }
      if (amount) transaction.amount = String(amount);
      transaction.status = 'submitted_for_settlement';
      return { status: 200, xml: this.transactionXml(transaction) };
    }
    if (method === 'POST' && match[2] === 'refund') {
      if (!['settled', 'settling'].includes(transaction.status)) {
        return this.validationError('transaction', 'base', '91506', 'Cannot refund transaction unless it is settled.');
      }
      const amount = body.transaction?.amount ?? transaction.amount;
      const refunded = [...this.transactions.values()].filter((t) => t.refundedTransactionId === transaction.id).reduce((sum, t) => sum + Number(t.amount), 0);
      if (Number(amount) + refunded > Number(transaction.amount) + 1e-9) {
        return this.validationError('transaction', 'amount', '91521', 'Refund amount is too large.');
      }
      const refund = this.record({
        ...transaction,
        id: randomBytes(4).toString('hex'),
        type: 'credit',
        status: 'submitted_for_settlement',
        amount: String(amount),
        orderId: body.transaction?.order_id ?? null,
        refundedTransactionId: transaction.id,
        createdAt: new Date().toISOString(),
        request: body,
      });
      return { status: 201, xml: this.transactionXml(refund) };
    }
    return null;
  }

  /** The dispute endpoints the SDK's `gateway.dispute.*` and `documentUpload.create` call; undefined: not one of them. */
  private disputeRoute(method: string, path: string, body: any): { status: number; xml: string } | null | undefined {
    if (method === 'POST' && path === 'document_uploads') {
      const id = `doc_${randomBytes(4).toString('hex')}`;
      this.documents.set(id, body.multipart ?? '');
      return { status: 201, xml: toXml('documentUpload', { id, kind: 'evidence_document', contentType: 'application/pdf', name: 'evidence', size: 1 }) };
    }
    if (method === 'POST' && path.startsWith('disputes/advanced_search')) {
      const received = body.search?.received_date?.min as string | undefined;
      const found = [...this.disputes.values()].filter((d) => !received || d.receivedDate >= received.slice(0, 10));
      return {
        status: 200,
        xml: toXml('disputes', {
          '@collection': true,
          currentPageNumber: 1,
          pageSize: 50,
          totalItems: found.length,
          dispute: found.map((d) => this.disputeXmlValue(d)),
        }),
      };
    }
    const match = /^disputes\/([^/]+)(?:\/(accept|finalize|evidence))?$/.exec(path);
    if (!match) return undefined;
    const dispute = this.disputes.get(decodeURIComponent(match[1]!));
    if (!dispute) return null;
    if (method === 'GET' && !match[2]) return { status: 200, xml: toXml('dispute', this.disputeXmlValue(dispute)) };
    if (dispute.status !== 'open') {
      const [code, message] =
        match[2] === 'accept'
          ? ['95701', 'Disputes can only be accepted when they are in an Open state']
          : match[2] === 'finalize'
            ? ['95708', 'Disputes can only be finalized when they are in an Open state']
            : ['95702', 'Evidence can only be attached to disputes that are in an Open state'];
      return this.validationError('dispute', 'status', code!, message!);
    }
    if (method === 'PUT' && match[2] === 'accept') {
      dispute.status = 'accepted';
      return { status: 200, xml: '<success type="boolean">true</success>' };
    }
    if (method === 'PUT' && match[2] === 'finalize') {
      dispute.status = 'disputed';
      return { status: 200, xml: '<success type="boolean">true</success>' };
    }
    if (method === 'POST' && match[2] === 'evidence') {
      const evidence = {
        id: `ev_${randomBytes(4).toString('hex')}`,
        comment: body.evidence?.comments ?? null,
        documentUploadId: body.evidence?.document_upload_id ?? null,
        category: body.evidence?.category ?? null,
      };
      if (evidence.documentUploadId && !this.documents.has(evidence.documentUploadId)) {
        return this.validationError('dispute', 'document_upload_id', '95707', 'Document upload not found');
      }
      dispute.evidence.push(evidence);
      return {
        status: 201,
        xml: toXml('evidence', { id: evidence.id, comment: evidence.comment, category: evidence.category, createdAt: new Date().toISOString() }),
      };
    }
    return null;
  }

  private disputeXmlValue(d: EmulatedDispute): Record<string, unknown> {
    const transaction = this.transactions.get(d.transactionId);
    return {
      id: d.id,
      status: d.status,
      amountDisputed: d.amountDisputed,
      amount: d.amountDisputed,
      currencyIsoCode: d.currencyIsoCode,
      reason: d.reason,
      kind: 'chargeback',
      receivedDate: d.receivedDate,
      replyByDate: d.replyByDate,
      transaction: { id: d.transactionId, amount: transaction?.amount ?? d.amountDisputed, orderId: transaction?.orderId ?? null },
    };
  }

  private clientToken(params: Record<string, any>) {
    const accounts = Object.keys(this.credentials.merchantAccounts);
    if (params.merchant_account_id && !accounts.includes(params.merchant_account_id)) {
      return this.validationError('client_token', 'merchant_account_id', '92807', 'Merchant account ID is invalid.');
    }
    if (params.customer_id !== undefined && !this.customers.has(String(params.customer_id))) {
      return this.validationError('client_token', 'customer_id', '92804', 'Customer specified by customer_id does not exist');
    }
    const fingerprint = randomBytes(24).toString('hex');
    // The shape of a real sandbox token (without the GraphQL entry, so braintree-web reads its
    // configuration from configUrl).
    const token = Buffer.from(
      JSON.stringify({
        version: 2,
        authorizationFingerprint: `${fingerprint}|created_at=${new Date().toISOString()}&merchant_id=${this.credentials.merchantId}&public_key=${this.credentials.publicKey}`,
        configUrl: `https://api.sandbox.braintreegateway.com:443/merchants/${this.credentials.merchantId}/client_api/v1/configuration`,
        clientApiUrl: `https://api.sandbox.braintreegateway.com:443/merchants/${this.credentials.merchantId}/client_api`,
        assetsUrl: 'https://assets.braintreegateway.com',
        environment: 'sandbox',
        merchantId: this.credentials.merchantId,
        merchantAccountId: params.merchant_account_id ?? accounts[0] ?? null,
      }),
    ).toString('base64');
    return { status: 201, xml: toXml('clientToken', { value: token }) };
  }

  private resolveNonce(nonce: string): Card | { error: [string, string] } {
    const fake = fakeNonces[nonce];
    if (fake) return { ...fake, uniqueNumberIdentifier: `un_${fake.bin}${fake.last4}` };
    if (nonce === 'fake-consumed-nonce') return { error: ['91564', 'Cannot use a payment_method_nonce more than once.'] };
    const stored = this.nonces.get(nonce);
    if (!stored) return { error: ['91565', 'Unknown payment_method_nonce.'] };
    if (stored.used) return { error: ['91564', 'Cannot use a payment_method_nonce more than once.'] };
    stored.used = true;
    return stored;
  }

  /** Customers and vaulted payment methods; undefined for any other path. */
  private vaultRoute(method: string, path: string, body: any): { status: number; xml: string } | null | undefined {
    const customer = /^customers\/([^/]+)$/.exec(path);
    if (method === 'GET' && customer) {
      const found = this.customers.get(decodeURIComponent(customer[1]!));
      return found ? { status: 200, xml: toXml('customer', { id: found.id, email: found.email, creditCards: [] }) } : null;
    }
    if (method === 'POST' && path === 'customers') {
      const id = String(body.customer?.id ?? randomBytes(4).toString('hex'));
      if (this.customers.has(id)) return this.validationError('customer', 'id', '91609', 'Customer ID has already been taken.');
      this.customers.set(id, { id, email: body.customer?.email ?? null });
      return { status: 201, xml: toXml('customer', { id, email: body.customer?.email ?? null, creditCards: [] }) };
    }
    if (method === 'POST' && path === 'payment_methods') {
      const params = body.payment_method ?? {};
      const customerId = String(params.customer_id ?? '');
      if (!this.customers.has(customerId)) return this.validationError('payment_method', 'customer_id', '93105', 'Customer ID is invalid.');
      const card = this.resolveNonce(String(params.payment_method_nonce ?? ''));
      if ('error' in card) return this.validationError('payment_method', 'payment_method_nonce', ...card.error);
      if (card.kind === 'us_bank_account') return this.vaultBankAccount(customerId, card, params);
      if (params.options?.verify_card && card.forced) {
        const code = card.forced.status === 'gateway_rejected' ? null : card.forced.code;
        const verification = {
          status: card.forced.status,
          processorResponseCode: code,
          processorResponseText: code ? (declineTexts[code] ?? 'Processor Network Unavailable - Try Again') : null,
          gatewayRejectionReason: card.forced.status === 'gateway_rejected' ? card.forced.reason : null,
          creditCard: this.creditCardValue(card),
        };
        return {
          status: 422,
          xml: `<api-error-response>${toXml('errors', { errors: [] })}${toXml('message', 'Do Not Honor')}${toXml('verification', verification)}</api-error-response>`,
        };
      }
      const token = randomBytes(4).toString('hex');
      this.vaulted.set(token, { token, customerId, card });
      return { status: 201, xml: toXml('creditCard', { token, customerId, ...this.creditCardValue(card) }) };
    }
    const vaultedMethod = /^payment_methods\/any\/([^/?]+)$/.exec(path);
    if (vaultedMethod) {
      const token = decodeURIComponent(vaultedMethod[1]!);
      const found = this.vaulted.get(token);
      if (!found) return null;
      if (method === 'DELETE') {
        this.vaulted.delete(token);
        return { status: 200, xml: '<success type="boolean">true</success>' };
      }
      if (method === 'GET') return { status: 200, xml: toXml('creditCard', { token, customerId: found.customerId, ...this.creditCardValue(found.card) }) };
    }
    return undefined;
  }

  /**
   * A US bank account vaulted: with `us_bank_account_verification_method: network_check` its test
   * number decides the verification; Braintree vaults it either way and says whether it is verified
   * (`verified`, `verifications`). Without a verification method it stays unverified, and its sale is
   * refused.
   */
  private vaultBankAccount(customerId: string, card: Card, params: Record<string, any>) {
    const account = card.usBankAccount!;
    const method = params.options?.us_bank_account_verification_method;
    const checked = method === 'network_check';
    const verified = checked && account.behavior.verification === 'verified';
    const token = randomBytes(4).toString('hex');
    this.vaulted.set(token, { token, customerId, card: { ...card, bankAccountVerified: verified } });
    const verifications = checked
      ? [
          {
            id: randomBytes(4).toString('hex'),
            status: account.behavior.verification,
            verificationMethod: 'network_check',
            processorResponseCode: account.behavior.code,
            processorResponseText: {
              '1000': 'Approved',
              '1003': 'Approved with Risk',
              '2038': 'Processor Declined',
              '2046': 'Declined',
              '3000': 'Processor Network Unavailable - Try Again',
            }[account.behavior.code],
            verificationDeterminedAt: new Date().toISOString(),
          },
        ]
      : [];
    return {
      status: 201,
      xml: toXml('usBankAccount', {
        token,
        customerId,
        last4: account.last4,
        routingNumber: account.routingNumber,
        accountType: account.accountType,
        accountHolderName: account.accountHolderName,
        ownershipType: account.ownershipType,
        bankName: account.bankName,
        verified,
        verifications,
        achMandate: { text: account.achMandate, acceptedAt: new Date().toISOString() },
      }),
    };
  }

  private creditCardValue(card: Card): Record<string, unknown> {
    return {
      bin: card.bin,
      last4: card.last4,
      cardType: card.cardType,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      uniqueNumberIdentifier: card.uniqueNumberIdentifier,
    };
  }

  private sale(params: Record<string, any>) {
    const token = params.payment_method_token as string | undefined;
    const vaultedCard = token
      ? (this.vaulted.get(String(token))?.card ?? { error: ['91518', 'Payment method token is invalid.'] as [string, string] })
      : this.resolveNonce(String(params.payment_method_nonce ?? ''));
    if ('error' in vaultedCard) return this.validationError('transaction', token ? 'payment_method_token' : 'payment_method_nonce', ...vaultedCard.error);
    // A vaulted card's sale may carry a CVV-only nonce: its CVV is checked against the card.
    let card = vaultedCard;
    if (token && params.payment_method_nonce !== undefined) {
      const cvv = this.resolveNonce(String(params.payment_method_nonce));
      if ('error' in cvv) return this.validationError('transaction', 'payment_method_nonce', ...cvv.error);
      card = { ...vaultedCard, cvv: cvv.cvv };
    }
    const accounts = Object.keys(this.credentials.merchantAccounts);
    const merchantAccountId = params.merchant_account_id ?? accounts[0]!;
    if (!accounts.includes(merchantAccountId)) {
      return this.validationError('transaction', 'merchant_account_id', '91513', 'Merchant account ID is invalid.');
    }
    // The sandbox refuses both sales; its error codes for them are not documented, so these two are the emulator's own.
    if (card.kind === 'us_bank_account' && !token) {
      return this.validationError('transaction', 'payment_method_nonce', '91587', 'US bank account nonces must be vaulted and verified before a sale.');
    }
    if (card.kind === 'us_bank_account' && !card.bankAccountVerified) {
      return this.validationError('transaction', 'payment_method_token', '91588', 'US bank account payment method must be verified before a sale.');
    }
    const amount = String(params.amount);
    const transaction: EmulatedTransaction = {
      id: randomBytes(4).toString('hex'),
      type: 'sale',
      status: params.options?.submit_for_settlement ? 'submitted_for_settlement' : 'authorized',
      amount,
      currencyIsoCode: this.credentials.merchantAccounts[merchantAccountId]!,
      merchantAccountId,
      orderId: params.order_id ?? null,
      deviceData: params.device_data ?? null,
      processorResponseCode: '1000',
      processorResponseText: 'Approved',
      gatewayRejectionReason: null,
      card,
      refundedTransactionId: null,
      createdAt: new Date().toISOString(),
      request: params,
    };
    const rejection = this.gatewayRejection(card, params, amount);
    const major = Number(amount);
    if (rejection) {
      Object.assign(transaction, { status: 'gateway_rejected', gatewayRejectionReason: rejection, processorResponseCode: null, processorResponseText: null });
    } else if (major === ISSUER_ASKS_AUTHENTICATION && card.threeDSecure?.liabilityShifted) {
      // Authenticated: the issuer approves.
    } else if (card.forced?.status === 'processor_declined' || card.salesDecline || (major >= 2000 && major < 3000)) {
      const code = card.forced?.status === 'processor_declined' ? card.forced.code : (card.salesDecline ?? String(Math.floor(major)));
      Object.assign(transaction, {
        status: 'processor_declined',
        processorResponseCode: code,
        processorResponseText: declineTexts[code] ?? 'Processor Declined',
      });
    } else if (card.forced?.status === 'failed' || major === 3000) {
      Object.assign(transaction, { status: 'failed', processorResponseCode: '3000', processorResponseText: 'Processor Network Unavailable - Try Again' });
    }
    // An ACH sale is accepted long before its money moves: `settlement_pending` until the bank settles it.
    if (card.kind === 'us_bank_account' && transaction.status === 'submitted_for_settlement') transaction.status = 'settlement_pending';
    this.record(transaction);
    if (transaction.status === 'authorized' || transaction.status === 'submitted_for_settlement' || transaction.status === 'settlement_pending') {
      return { status: 201, xml: this.transactionXml(transaction) };
    }
    // Declines and rejections come back as an error response that carries the transaction.
    const message = transaction.processorResponseText ?? `Gateway Rejected: ${transaction.gatewayRejectionReason}`;
    return {
      status: 201,
      xml: `<api-error-response>${toXml('errors', { errors: [] })}${toXml('message', message)}${this.transactionXml(transaction)}</api-error-response>`,
    };
  }

  private gatewayRejection(card: Card, params: Record<string, any>, amount: string): string | null {
    if (card.forced?.status === 'gateway_rejected') return card.forced.reason;
    if (params.options?.three_d_secure?.required && card.kind === 'credit_card' && !card.threeDSecure?.liabilityShifted) return 'three_d_secure';
    const cvvFails = this.rules.cvv && card.cvv === '200';
    const avsFails = this.rules.avs && card.postalCode === '20000';
    if (cvvFails && avsFails) return 'avs_and_cvv';
    if (cvvFails) return 'cvv';
    if (avsFails) return 'avs';
    if (this.rules.duplicate) {
      const duplicate = [...this.transactions.values()].some(
        (t) =>
          t.type === 'sale' &&
          t.amount === amount &&
          t.card.uniqueNumberIdentifier === card.uniqueNumberIdentifier &&
          ['authorized', 'submitted_for_settlement', 'settled'].includes(t.status),
      );
      if (duplicate) return 'duplicate';
    }
    return null;
  }

  private search(criteria: Record<string, any> = {}): EmulatedTransaction[] {
    const orderId = criteria.order_id?.is;
    return [...this.transactions.values()].filter((t) => (orderId === undefined ? true : t.orderId === orderId));
  }

  private record(transaction: EmulatedTransaction): EmulatedTransaction {
    this.transactions.set(transaction.id, transaction);
    return transaction;
  }

  private validationError(resource: string, attribute: string, code: string, message: string) {
    const errors = `<errors>${toXml('errors', [])}<${dasherize(resource)}>${toXml('errors', [{ code, attribute, message }])}</${dasherize(resource)}></errors>`;
    return { status: 422, xml: `<api-error-response>${errors}${toXml('message', message)}</api-error-response>` };
  }

  private transactionXmlValue(t: EmulatedTransaction): Record<string, unknown> {
    const card = t.card;
    const wallet = card.kind !== 'credit_card';
    return {
      id: t.id,
      status: t.status,
      type: t.type,
      amount: t.amount,
      currencyIsoCode: t.currencyIsoCode,
      merchantAccountId: t.merchantAccountId,
      orderId: t.orderId,
      processorResponseCode: t.processorResponseCode,
      processorResponseText: t.processorResponseText,
      gatewayRejectionReason: t.gatewayRejectionReason,
      paymentInstrumentType: card.kind,
      refundedTransactionId: t.refundedTransactionId,
      refundIds: [...this.transactions.values()].filter((r) => r.refundedTransactionId === t.id).map((r) => r.id),
      createdAt: t.createdAt,
      creditCard: wallet
        ? { bin: null, last4: null, cardType: null }
        : {
            bin: card.bin,
            last4: card.last4,
            cardType: card.cardType,
            expirationMonth: card.expirationMonth,
            expirationYear: card.expirationYear,
            uniqueNumberIdentifier: card.uniqueNumberIdentifier,
          },
      ...(card.kind === 'apple_pay_card'
        ? { applePay: { cardType: card.cardType, last4: card.last4, expirationMonth: card.expirationMonth, expirationYear: card.expirationYear } }
        : {}),
      ...(card.kind === 'paypal_account' ? { paypal: { payerEmail: card.payerEmail } } : {}),
      ...(card.kind === 'venmo_account' ? { venmoAccount: { username: card.username } } : {}),
      ...(card.kind === 'us_bank_account' && card.usBankAccount
        ? {
            usBankAccount: {
              routingNumber: card.usBankAccount.routingNumber,
              last4: card.usBankAccount.last4,
              accountType: card.usBankAccount.accountType,
              accountHolderName: card.usBankAccount.accountHolderName,
              ownershipType: card.usBankAccount.ownershipType,
              bankName: card.usBankAccount.bankName,
            },
            ...(t.achReturnCode
              ? { achReturnCode: t.achReturnCode, achReturnResponses: [{ reasonCode: t.achReturnCode, createdAt: new Date().toISOString() }] }
              : {}),
          }
        : {}),
      ...(card.kind === 'local_payment'
        ? { localPayment: { fundingSource: card.localPayment?.fundingSource ?? null, paymentId: card.localPayment?.paymentId ?? null } }
        : {}),
      ...(card.kind === 'android_pay_card'
        ? {
            androidPayCard: {
              sourceCardType: card.cardType,
              sourceCardLast4: card.last4,
              virtualCardType: card.cardType,
              virtualCardLast4: '0000',
              expirationMonth: card.expirationMonth,
              expirationYear: card.expirationYear,
            },
          }
        : {}),
      // Advanced Fraud Protection screens a sale that carries device data.
      ...(t.type === 'sale' && t.deviceData
        ? {
            riskData: {
              id: `risk_${t.id}`,
              decision: t.gatewayRejectionReason === 'fraud' ? 'Decline' : 'Approve',
              deviceDataCaptured: true,
              fraudServiceProvider: 'fraud_protection',
            },
          }
        : {}),
      ...(card.threeDSecure
        ? { threeDSecureInfo: { status: card.threeDSecure.status, liabilityShifted: card.threeDSecure.liabilityShifted, liabilityShiftPossible: true } }
        : {}),
    };
  }

  private transactionXml(t: EmulatedTransaction): string {
    return toXml('transaction', this.transactionXmlValue(t));
  }
}

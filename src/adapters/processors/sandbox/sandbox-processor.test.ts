import { beforeEach, describe, expect, it } from 'vitest';
import { testCards } from './sandbox-cards';
import { SandboxProcessor } from './sandbox-processor';
import type { RawCard, TokenizeResult, AuthorizeRequest, AuthorizeResult } from '../../../domain/processors/ports';
import type {
  SandboxTransaction,
  SandboxTransactionLedger,
  SandboxNonceRecord,
  SandboxNonceVault,
  SandboxSavedMethod,
} from '../../../domain/processors/sandbox-ports';

/** An in-memory TestNonceVault (our own port): keeps every saved record, serialized, for inspection. */
class MemoryVault implements SandboxNonceVault {
  private readonly methods = new Map<string, SandboxSavedMethod>();
  async saveMethod(record: SandboxSavedMethod): Promise<void> {
    this.methods.set(record.token, record);
  }
  async getMethod(token: string): Promise<SandboxSavedMethod | null> {
    return this.methods.get(token) ?? null;
  }
  async deleteMethod(token: string): Promise<boolean> {
    return this.methods.delete(token);
  }

  readonly saved: string[] = [];
  readonly takes: Array<{ nonce: string; at: Date }> = [];
  private readonly records = new Map<string, { json: string; used: boolean }>();

  async save(record: SandboxNonceRecord): Promise<void> {
    const json = JSON.stringify(record);
    this.saved.push(json);
    this.records.set(record.nonce, { json, used: false });
  }

  async take(nonce: string, at: Date): Promise<SandboxNonceRecord | null> {
    this.takes.push({ nonce, at });
    const entry = this.records.get(nonce);
    if (!entry || entry.used) return null;
    entry.used = true;
    const parsed = JSON.parse(entry.json) as SandboxNonceRecord;
    return { ...parsed, createdAt: new Date(parsed.createdAt) };
  }
}

/** An in-memory TestTransactionLedger (our own port), with the same compare-and-set rules as the SQL one. */
class MemoryLedger implements SandboxTransactionLedger {
  readonly transactions = new Map<string, SandboxTransaction>();
  private readonly refunds = new Map<string, string>();
  private readonly refundList: Array<{ transactionId: string; refundId: string; refundTransactionId: string; amount: number }> = [];

  async insert(t: SandboxTransaction) {
    this.transactions.set(t.id, { ...t });
  }
  async get(id: string) {
    const t = this.transactions.get(id);
    return t ? { ...t } : null;
  }
  async findByPaymentId(paymentId: string) {
    const t = [...this.transactions.values()].find((x) => x.paymentId === paymentId);
    return t ? { ...t } : null;
  }
  async move(
    id: string,
    from: readonly SandboxTransaction['status'][],
    to: SandboxTransaction['status'],
    changes: { amountCaptured?: number; settlesAt?: Date | null },
    at: Date,
  ) {
    const t = this.transactions.get(id);
    if (!t || !from.includes(t.status)) return false;
    Object.assign(t, changes, { status: to, updatedAt: at });
    return true;
  }
  async refundsOf(id: string) {
    return this.refundList.filter((r) => r.transactionId === id).map(({ transactionId: _, ...r }) => r);
  }
  async settleDue(id: string, at: Date) {
    const t = this.transactions.get(id);
    if (t && t.status === 'submitted_for_settlement' && t.settlesAt && t.settlesAt <= at) t.status = 'settled';
  }
  async refund(id: string, refund: { refundId: string; amount: number; at: Date; refundTransactionId: string }) {
    const seen = this.refunds.get(refund.refundId);
    if (seen) return { result: 'repeated' as const, refundTransactionId: seen };
    const t = this.transactions.get(id);
    if (t?.status !== 'settled' || t.amountRefunded + refund.amount > t.amountCaptured) return { result: 'refused' as const };
    t.amountRefunded += refund.amount;
    this.refunds.set(refund.refundId, refund.refundTransactionId);
    this.refundList.push({ transactionId: id, refundId: refund.refundId, refundTransactionId: refund.refundTransactionId, amount: refund.amount });
    return { result: 'refunded' as const, refundTransactionId: refund.refundTransactionId };
  }
}

// The card-validator library checks expiry against the wall clock, so expiry years are relative to it.
const thisYear = new Date().getFullYear();
const fixedNow = new Date(`${thisYear}-03-04T05:06:07.000Z`);

let vault: MemoryVault;
let ledger: MemoryLedger;
let processor: SandboxProcessor;

beforeEach(() => {
  vault = new MemoryVault();
  ledger = new MemoryLedger();
  processor = new SandboxProcessor(vault, 'fingerprint-key-for-tests', () => fixedNow, ledger);
});

function card(overrides: Partial<RawCard> = {}): RawCard {
  return { number: '4111111111111111', expMonth: 12, expYear: thisYear + 3, cvc: '468', postalCode: '94107', ...overrides };
}

async function tokenize(overrides: Partial<RawCard> = {}): Promise<TokenizeResult> {
  return processor.tokenizeCard(card(overrides));
}

async function nonceFor(number = '4111111111111111', cvc = '468'): Promise<string> {
  const result = await tokenize({ number, cvc });
  if (!result.ok) throw new Error(`tokenize ${number} failed: ${result.message}`);
  return result.nonce;
}

function request(nonce: string, amount: number, currency = 'USD', capture = true): AuthorizeRequest {
  return { paymentId: 'pay_test_1', amount, currency, capture, nonce, deviceData: null, email: 'ada@example.com' };
}

async function pay(amount: number, currency = 'USD', capture = true): Promise<AuthorizeResult> {
  return processor.authorize(request(await nonceFor(), amount, currency, capture));
}

describe('TestProcessor.tokenizeCard', () => {
  it.each(['4111111111111111', '4111 1111 1111 1111', '4111-1111-1111-1111', ' 4111 1111-1111 1111 '])(
    'accepts the Visa test card written as %j',
    async (number) => {
      const result = await tokenize({ number });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.nonce).toMatch(/^tokencc_[A-Za-z0-9_-]{16,}$/);
      expect(result.paymentMethod).toMatchObject({
        type: 'card',
        brand: 'visa',
        last4: '1111',
        expMonth: 12,
        expYear: thisYear + 3,
      });
      expect(result.paymentMethod.fingerprint).toEqual(expect.any(String));
    },
  );

  it('gives a new nonce each time, and the same fingerprint for the same card', async () => {
    const a = await tokenize();
    const b = await tokenize({ number: '4111 1111 1111 1111' });
    const other = await tokenize({ number: '4005519200000004' });
    if (!a.ok || !b.ok || !other.ok) throw new Error('tokenize failed');
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.paymentMethod.fingerprint).toBe(b.paymentMethod.fingerprint);
    expect(other.paymentMethod.fingerprint).not.toBe(a.paymentMethod.fingerprint);
  });

  it('keys the fingerprint: another install (another key) gives another fingerprint', async () => {
    const a = await tokenize();
    const elsewhere = await new SandboxProcessor(new MemoryVault(), 'another-key', () => fixedNow, new MemoryLedger()).tokenizeCard(card());
    if (!a.ok || !elsewhere.ok) throw new Error('tokenize failed');
    expect(elsewhere.paymentMethod.fingerprint).not.toBe(a.paymentMethod.fingerprint);
  });

  it('accepts a card expiring at the end of the current month', async () => {
    const today = new Date();
    const result = await tokenize({ expMonth: today.getMonth() + 1, expYear: today.getFullYear() });
    expect(result.ok).toBe(true);
  });

  it('reads a two-digit expiry year as 20xx', async () => {
    const result = await tokenize({ expYear: (thisYear + 3) % 100 });
    expect(result.ok && result.paymentMethod.expYear).toBe(thisYear + 3);
  });

  it.each([
    ['378282246310005', 'amex', '0005', '4687'],
    ['5555555555554444', 'mastercard', '4444', '468'],
    ['6011111111111117', 'discover', '1117', '468'],
    ['3530111333300000', 'jcb', '0000', '468'],
    ['36259600000004', 'diners', '0004', '468'],
  ])('accepts test card %s as %s ending %s', async (number, brand, last4, cvc) => {
    const result = await tokenize({ number, cvc });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.paymentMethod).toMatchObject({ brand, last4 });
  });

  it('accepts every card of its own test card list', async () => {
    for (const number of testCards.keys()) {
      const cvc = number.startsWith('34') || number.startsWith('37') ? '4687' : '468';
      const result = await tokenize({ number, cvc });
      expect(result.ok, number).toBe(true);
      if (result.ok) expect(result.paymentMethod.last4).toBe(number.slice(-4));
    }
  });

  it.each(['4242424242424242', '5200828282828210', '4000056655665556', '4917610000000000'])(
    'refuses the Luhn-valid non-test number %s with test_mode_live_card',
    async (number) => {
      const result = await tokenize({ number });
      expect(result).toMatchObject({ ok: false, declineCode: 'test_mode_live_card', param: 'number' });
      expect(vault.saved).toHaveLength(0);
    },
  );

  it.each(['4111111111111112', '4111 1111 1111 1110', '1234567812345678', '4111', '', 'abcd efgh ijkl mnop'])(
    'refuses the invalid number %j (param number)',
    async (number) => {
      const result = await tokenize({ number });
      expect(result).toMatchObject({ ok: false, declineCode: 'incorrect_number', param: 'number' });
      expect(vault.saved).toHaveLength(0);
    },
  );

  it.each([
    ['last year', 12, thisYear - 1],
    ['January 2020', 1, 2020],
    ['month 13', 13, thisYear + 1],
    ['month 0', 0, thisYear + 1],
    ['more than 20 years ahead', 1, thisYear + 21],
  ])('refuses an expiry %s (param exp)', async (_, expMonth, expYear) => {
    const result = await tokenize({ expMonth, expYear });
    expect(result).toMatchObject({ ok: false, declineCode: 'expired_card', param: 'exp' });
    expect(vault.saved).toHaveLength(0);
  });

  it('refuses a 3-digit CVC on the Amex 378282246310005 (param cvc)', async () => {
    const result = await tokenize({ number: '378282246310005', cvc: '123' });
    expect(result).toMatchObject({ ok: false, declineCode: 'incorrect_cvc', param: 'cvc' });
    if (!result.ok) expect(result.message).toContain('4 digits');
    expect(vault.saved).toHaveLength(0);
  });

  it.each(['1234', '12', '', 'abc', '12a'])('refuses CVC %j on a Visa (param cvc)', async (cvc) => {
    const result = await tokenize({ cvc });
    expect(result).toMatchObject({ ok: false, declineCode: 'incorrect_cvc', param: 'cvc' });
  });

  it('never hands the card number or the CVC to the vault', async () => {
    const cards = [
      { number: '4111 1111 1111 1111', cvc: '468' },
      { number: '378282246310005', cvc: '4687' },
      { number: '5555-5555-5555-4444', cvc: '579' },
    ];
    for (const { number, cvc } of cards) {
      const result = await tokenize({ number, cvc });
      if (!result.ok) throw new Error(`tokenize ${number} failed`);
      const saved = vault.saved.at(-1)!;
      const digits = number.replace(/\D/g, '');
      // The nonce is random and handed to the shopper anyway; drop it so a chance match of the CVC
      // digits inside it cannot make this test flaky.
      const withoutNonce = saved.replaceAll(result.nonce, '');
      expect(withoutNonce).not.toContain(digits);
      expect(withoutNonce).not.toContain(number);
      expect(withoutNonce).not.toContain(digits.slice(0, 6) + digits.slice(6, 12)); // no long prefix either
      expect(withoutNonce).not.toContain(cvc);
      const record = JSON.parse(saved) as Record<string, unknown>;
      expect(Object.keys(record).sort()).toEqual(['behavior', 'createdAt', 'nonce', 'paymentMethod', 'threeDSecure']);
      expect(record.createdAt).toBe(fixedNow.toISOString());
    }
    expect(vault.saved).toHaveLength(3);
  });

  it('never puts the card number or CVC in a refusal message', async () => {
    for (const overrides of [
      { number: '4242424242424242', cvc: '468' },
      { number: '4111111111111112', cvc: '468' },
      { number: '378282246310005', cvc: '135' },
    ]) {
      const result = await tokenize(overrides);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.message).not.toContain(overrides.number);
        expect(result.message).not.toContain(overrides.cvc);
      }
    }
  });
});

describe('TestProcessor.authorize: the amount decides (Braintree sandbox)', () => {
  it('2001.00 USD is declined insufficient_funds with processor response 2001', async () => {
    const result = await pay(200100);
    expect(result).toMatchObject({
      outcome: 'declined',
      declineCode: 'insufficient_funds',
      response: { code: '2001', text: 'Insufficient Funds' },
      paymentMethod: { brand: 'visa', last4: '1111' },
    });
    if (result.outcome === 'declined') expect(result.transactionId).toEqual(expect.any(String));
  });

  it('2000.00 USD is declined do_not_honor with response 2000', async () => {
    expect(await pay(200000)).toMatchObject({ outcome: 'declined', declineCode: 'do_not_honor', response: { code: '2000' } });
  });

  it('2001.99 USD still declines with 2001 (the whole major units decide)', async () => {
    expect(await pay(200199)).toMatchObject({ outcome: 'declined', response: { code: '2001' } });
  });

  it('2999.99 USD is declined with response 2999', async () => {
    expect(await pay(299999)).toMatchObject({
      outcome: 'declined',
      declineCode: 'do_not_honor',
      response: { code: '2999', text: 'Processor Declined' },
    });
  });

  it('3000.00 USD fails: the processor is unavailable (response 3000)', async () => {
    const result = await pay(300000);
    expect(result.outcome).toBe('unavailable');
    if (result.outcome === 'unavailable') expect(result.response?.code).toBe('3000');
  });

  it.each([
    ['1999.99', 199999],
    ['3001.00', 300100],
    ['10.00', 1000],
    ['0.50', 50],
  ])('%s USD is approved', async (_, amount) => {
    const result = await pay(amount);
    expect(result).toMatchObject({
      outcome: 'approved',
      response: { code: '1000', text: 'Approved' },
      paymentMethod: { type: 'card', brand: 'visa', last4: '1111' },
    });
    if (result.outcome === 'approved') expect(result.transactionId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('echoes the capture flag: captured when asked to capture, authorized only otherwise', async () => {
    expect(await pay(1000, 'USD', true)).toMatchObject({ outcome: 'approved', captured: true });
    expect(await pay(1000, 'USD', false)).toMatchObject({ outcome: 'approved', captured: false });
  });

  it('reads amounts in the currency’s own minor unit: JPY 2001 (0 decimals) declines with 2001', async () => {
    expect(await pay(2001, 'JPY')).toMatchObject({ outcome: 'declined', response: { code: '2001' } });
    // ...while 2001 minor units of USD is only 20.01 and is approved.
    expect(await pay(2001, 'USD')).toMatchObject({ outcome: 'approved' });
    // ...and 200100 yen is far outside the decline range.
    expect(await pay(200100, 'JPY')).toMatchObject({ outcome: 'approved' });
  });

  it('reads 3-decimal currencies too: KWD 2001.000 declines with 2001, KWD 200.100 is approved', async () => {
    expect(await pay(2_001_000, 'KWD')).toMatchObject({ outcome: 'declined', response: { code: '2001' } });
    expect(await pay(200_100, 'KWD')).toMatchObject({ outcome: 'approved' });
  });

  it('gives each transaction its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const result = await pay(1000);
      if (result.outcome === 'approved') ids.add(result.transactionId);
    }
    expect(ids.size).toBe(20);
  });
});

describe('TestProcessor.authorize: nonces', () => {
  it('a tokenized nonce is single-use: the second authorize is invalid_payment_method', async () => {
    const nonce = await nonceFor();
    expect((await processor.authorize(request(nonce, 1000))).outcome).toBe('approved');
    expect((await processor.authorize(request(nonce, 1000))).outcome).toBe('invalid_payment_method');
  });

  it('a declined attempt uses the nonce up too', async () => {
    const nonce = await nonceFor();
    expect((await processor.authorize(request(nonce, 200100))).outcome).toBe('declined');
    expect((await processor.authorize(request(nonce, 1000))).outcome).toBe('invalid_payment_method');
  });

  it('asks the vault with the processor clock', async () => {
    const nonce = await nonceFor();
    await processor.authorize(request(nonce, 1000));
    expect(vault.takes).toEqual([{ nonce, at: fixedNow }]);
  });

  it.each(['tokencc_doesnotexist', '', 'fake-nonexistent-nonce'])('an unknown nonce %j is invalid_payment_method', async (nonce) => {
    expect((await processor.authorize(request(nonce, 1000))).outcome).toBe('invalid_payment_method');
  });

  it('fake-valid-nonce is approved, without a vault, and may be used again', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await processor.authorize(request('fake-valid-nonce', 1000))).toMatchObject({
        outcome: 'approved',
        paymentMethod: { type: 'card', brand: 'visa' },
      });
    }
    expect(vault.takes).toHaveLength(0);
  });

  it('fake-valid-nonce still follows the amount rules', async () => {
    expect(await processor.authorize(request('fake-valid-nonce', 200100))).toMatchObject({
      outcome: 'declined',
      response: { code: '2001' },
    });
  });

  it('fake-valid-mastercard-nonce carries its brand', async () => {
    expect(await processor.authorize(request('fake-valid-mastercard-nonce', 1000))).toMatchObject({
      outcome: 'approved',
      paymentMethod: { brand: 'mastercard', last4: '4444' },
    });
  });

  it('fake-processor-declined-visa-nonce is declined with 2000 at any amount', async () => {
    for (const amount of [1000, 199999, 300100]) {
      expect(await processor.authorize(request('fake-processor-declined-visa-nonce', amount))).toMatchObject({
        outcome: 'declined',
        declineCode: 'do_not_honor',
        response: { code: '2000', text: 'Do Not Honor' },
      });
    }
  });

  it('fake-consumed-nonce and fake-luhn-invalid-nonce are invalid payment methods', async () => {
    expect((await processor.authorize(request('fake-consumed-nonce', 1000))).outcome).toBe('invalid_payment_method');
    expect((await processor.authorize(request('fake-luhn-invalid-nonce', 1000))).outcome).toBe('invalid_payment_method');
  });

  it('fake-processor-failure-jcb-nonce: the processor is unavailable', async () => {
    expect((await processor.authorize(request('fake-processor-failure-jcb-nonce', 1000))).outcome).toBe('unavailable');
  });
});

describe('TestProcessor.authorize: special test cards', () => {
  it.each([1000, 50, 199999, 300100])('4000111111111115 always declines (do_not_honor, 2000), here at %i', async (amount) => {
    const nonce = await nonceFor('4000111111111115');
    expect(await processor.authorize(request(nonce, amount))).toMatchObject({
      outcome: 'declined',
      declineCode: 'do_not_honor',
      response: { code: '2000' },
      paymentMethod: { brand: 'visa', last4: '1115' },
    });
  });

  it('3566002020360505 always fails with the processor unavailable', async () => {
    const nonce = await nonceFor('3566002020360505');
    expect((await processor.authorize(request(nonce, 1000))).outcome).toBe('unavailable');
  });
});

describe('TestProcessor: identity', () => {
  it("is named test, tokenizes on the server and offers Google Pay through Google's test gateway", async () => {
    expect(processor.name).toBe('test');
    expect(await processor.clientConfiguration()).toEqual({
      tokenize: 'server',
      googlePay: { gateway: 'example', gatewayMerchantId: 'exampleGatewayMerchantId', environment: 'TEST' },
    });
  });
});

describe('TestProcessor lifecycle (Braintree sandbox rules)', () => {
  let at: Date;
  let delayed: SandboxProcessor;
  const HOUR = 3600_000;

  beforeEach(() => {
    at = new Date(fixedNow);
    // Settles one hour after submission, so "not settled yet" can be observed.
    delayed = new SandboxProcessor(vault, 'fingerprint-key-for-tests', () => at, ledger, { delayMs: HOUR });
  });

  async function authorizeOnly(amount = 5000, paymentId = 'pay_1') {
    const result = await delayed.authorize({ ...request('fake-valid-nonce', amount, 'USD', false), paymentId });
    if (result.outcome !== 'approved') throw new Error('not approved');
    return result.transactionId;
  }

  it('captures once, partially, up to the authorized amount', async () => {
    const id = await authorizeOnly(5000);
    expect(await delayed.capture({ transactionId: id, amount: 5001, currency: 'USD' })).toMatchObject({
      outcome: 'refused',
      reason: 'not_capturable',
    });
    expect(await delayed.capture({ transactionId: id, amount: 3000, currency: 'USD' })).toMatchObject({ outcome: 'succeeded' });
    expect(ledger.transactions.get(id)).toMatchObject({ status: 'submitted_for_settlement', amountCaptured: 3000 });
    expect(await delayed.capture({ transactionId: id, amount: 1000, currency: 'USD' })).toMatchObject({
      outcome: 'refused',
      reason: 'not_capturable',
    });
  });

  it('refuses a refund before settlement with not_settled, and refunds after it, never beyond the capture', async () => {
    const id = await authorizeOnly(5000);
    await delayed.capture({ transactionId: id, amount: 4000, currency: 'USD' });
    const early = await delayed.refund({ transactionId: id, amount: 100, currency: 'USD', refundId: 're_1' });
    expect(early).toMatchObject({ outcome: 'refused', reason: 'not_settled' });

    at = new Date(at.getTime() + HOUR);
    expect(await delayed.refund({ transactionId: id, amount: 3000, currency: 'USD', refundId: 're_2' })).toMatchObject({
      outcome: 'succeeded',
    });
    expect(await delayed.refund({ transactionId: id, amount: 1001, currency: 'USD', refundId: 're_3' })).toMatchObject({
      outcome: 'refused',
      reason: 'not_refundable',
    });
    // The same refund id again is answered as the first time and refunds nothing more.
    const first = await delayed.refund({ transactionId: id, amount: 3000, currency: 'USD', refundId: 're_2' });
    expect(first).toMatchObject({ outcome: 'succeeded' });
    expect(ledger.transactions.get(id)).toMatchObject({ status: 'settled', amountRefunded: 3000 });
  });

  it('voids an authorized or submitted transaction, but not a settled one', async () => {
    const authorized = await authorizeOnly(5000, 'pay_a');
    expect(await delayed.void({ transactionId: authorized })).toMatchObject({ outcome: 'succeeded' });
    expect(ledger.transactions.get(authorized)!.status).toBe('voided');
    expect(await delayed.capture({ transactionId: authorized, amount: 5000, currency: 'USD' })).toMatchObject({
      outcome: 'refused',
    });

    const submitted = await authorizeOnly(5000, 'pay_b');
    await delayed.capture({ transactionId: submitted, amount: 5000, currency: 'USD' });
    expect(await delayed.void({ transactionId: submitted })).toMatchObject({ outcome: 'succeeded' });

    const settled = await authorizeOnly(5000, 'pay_c');
    await delayed.capture({ transactionId: settled, amount: 5000, currency: 'USD' });
    at = new Date(at.getTime() + HOUR);
    expect(await delayed.void({ transactionId: settled })).toMatchObject({ outcome: 'refused', reason: 'not_voidable' });
  });

  it('settles at once by default, so a sale can be refunded right away', async () => {
    const sale = await processor.authorize({ ...request('fake-valid-nonce', 5000), paymentId: 'pay_now' });
    if (sale.outcome !== 'approved') throw new Error('not approved');
    expect(await processor.refund({ transactionId: sale.transactionId, amount: 5000, currency: 'USD', refundId: 're_x' })).toMatchObject({
      outcome: 'succeeded',
    });
  });

  it('finds transactions by our payment id: approved, declined, or not at all', async () => {
    await delayed.authorize({ ...request('fake-valid-nonce', 5000), paymentId: 'pay_ok' });
    await delayed.authorize({ ...request('fake-valid-nonce', 200100), paymentId: 'pay_declined' });
    expect(await delayed.findByPaymentId({ paymentId: 'pay_ok' })).toMatchObject({
      found: true,
      status: 'submitted_for_settlement',
      authorization: { outcome: 'approved', captured: true },
    });
    expect(await delayed.findByPaymentId({ paymentId: 'pay_declined' })).toMatchObject({
      found: true,
      status: 'processor_declined',
      authorization: { outcome: 'declined', declineCode: 'insufficient_funds' },
    });
    expect(await delayed.findByPaymentId({ paymentId: 'pay_never' })).toEqual({ found: false });
  });
});

describe('TestProcessor.authorize: wallet nonces (Braintree sandbox)', () => {
  const as = (nonce: string, paymentMethodType: AuthorizeRequest['paymentMethodType']) => ({ ...request(nonce, 1000), paymentMethodType });

  it.each([
    ['fake-apple-pay-visa-nonce', 'apple_pay', { type: 'apple_pay', brand: 'visa', last4: '1881' }],
    ['fake-apple-pay-mastercard-nonce', 'apple_pay', { type: 'apple_pay', brand: 'mastercard', last4: '4444' }],
    ['fake-paypal-one-time-nonce', 'paypal', { type: 'paypal', brand: null, last4: null, payerEmail: 'payer@example.com' }],
    ['fake-venmo-account-nonce', 'venmo', { type: 'venmo', brand: null, last4: null, username: 'venmojoe' }],
  ] as const)('%s pays as %s and says what the wallet reveals', async (nonce, type, paymentMethod) => {
    const result = await processor.authorize(as(nonce, type));
    expect(result).toMatchObject({ outcome: 'approved', paymentMethod, response: { code: '1000' } });
  });

  it('a wallet nonce follows the amount rules too', async () => {
    const result = await processor.authorize({ ...as('fake-paypal-one-time-nonce', 'paypal'), amount: 200100 });
    expect(result).toMatchObject({ outcome: 'declined', declineCode: 'insufficient_funds', paymentMethod: { type: 'paypal' } });
  });

  it("refuses a wallet's nonce paid as another method, and a card paid as a wallet", async () => {
    expect(await processor.authorize(as('fake-paypal-one-time-nonce', 'card'))).toMatchObject({ outcome: 'invalid_payment_method' });
    expect(await processor.authorize(as('fake-venmo-account-nonce', 'paypal'))).toMatchObject({ outcome: 'invalid_payment_method' });
    expect(await processor.authorize(as('fake-valid-nonce', 'apple_pay'))).toMatchObject({ outcome: 'invalid_payment_method' });
    expect(await processor.authorize(as(await nonceFor(), 'venmo'))).toMatchObject({ outcome: 'invalid_payment_method' });
    expect(ledger.transactions.size).toBe(0);
  });
});

describe('TestProcessor: 3-D Secure as the Braintree sandbox runs it', () => {
  const always = (nonce: string) => ({ ...request(nonce, 1000), threeDSecureMode: 'always' as const, paymentMethodType: 'card' as const });
  const verify = async (number: string) => {
    const verified = await processor.verifyThreeDSecure({ nonce: await nonceFor(number) });
    if (!verified.ok) throw new Error(verified.message);
    return verified;
  };

  it('4000000000002701: frictionless success, liability shifted, pays with the result', async () => {
    const verified = await verify('4000000000002701');
    expect(verified).toMatchObject({ status: 'authenticate_successful', liabilityShifted: true, challenge: false });
    expect(await processor.authorize(always(verified.nonce))).toMatchObject({
      outcome: 'approved',
      threeDSecure: { status: 'authenticate_successful', liabilityShifted: true },
    });
  });

  it('4000000000002503: a challenge, which the shopper passes or fails', async () => {
    const first = await verify('4000000000002503');
    expect(first).toMatchObject({ status: 'challenge_required', challenge: true, liabilityShifted: false });
    // Unanswered, the challenge authenticates nothing: a sale requiring 3-D Secure is rejected.
    const passed = await processor.answerThreeDSecureChallenge({ nonce: first.nonce, passed: true });
    expect(passed).toMatchObject({ ok: true, status: 'authenticate_successful', liabilityShifted: true, challenge: false });
    expect(await processor.authorize(always((passed as { nonce: string }).nonce))).toMatchObject({ outcome: 'approved' });
    // A challenge is answered once.
    expect(await processor.answerThreeDSecureChallenge({ nonce: first.nonce, passed: true })).toMatchObject({ ok: false });

    const second = await verify('4000000000002503');
    expect(await processor.authorize(always(second.nonce))).toMatchObject({ outcome: 'declined', declineCode: 'authentication_failed' });
    const third = await verify('4000000000002503');
    const failed = await processor.answerThreeDSecureChallenge({ nonce: third.nonce, passed: false });
    expect(failed).toMatchObject({ ok: true, status: 'authenticate_failed', liabilityShifted: false, liabilityShiftPossible: true });
    expect(await processor.authorize(always((failed as { nonce: string }).nonce))).toMatchObject({
      outcome: 'declined',
      declineCode: 'authentication_failed',
      response: { text: 'Gateway Rejected: three_d_secure' },
      threeDSecure: { status: 'authenticate_failed', liabilityShifted: false },
    });
  });

  it('4000000000002925: authentication failed without a challenge; 4000000000002313: unavailable', async () => {
    expect(await verify('4000000000002925')).toMatchObject({
      status: 'authenticate_frictionless_failed',
      liabilityShifted: false,
      liabilityShiftPossible: true,
    });
    const unavailable = await verify('4000000000002313');
    expect(unavailable).toMatchObject({ status: 'authenticate_unable_to_authenticate', liabilityShifted: false, liabilityShiftPossible: false });
    // Without a requirement, a card whose authentication was unavailable pays, without a liability shift.
    expect(await processor.authorize({ ...always(unavailable.nonce), threeDSecureMode: 'when_required' })).toMatchObject({
      outcome: 'approved',
      threeDSecure: { status: 'authenticate_unable_to_authenticate', liabilityShifted: false },
    });
  });

  it('a test card outside the 3-D Secure list is not enrolled; with three_d_secure always it is rejected', async () => {
    const verified = await verify('4111111111111111');
    expect(verified).toMatchObject({ status: 'lookup_not_enrolled', liabilityShiftPossible: false });
    expect(await processor.authorize(always(verified.nonce))).toMatchObject({ outcome: 'declined', declineCode: 'authentication_failed' });
    // Never verified at all: rejected too; off, it pays with no 3-D Secure.
    expect(await processor.authorize(always(await nonceFor()))).toMatchObject({ outcome: 'declined', declineCode: 'authentication_failed' });
    expect(await processor.authorize({ ...always(await nonceFor()), threeDSecureMode: 'off' })).toMatchObject({ outcome: 'approved' });
  });

  it('verification uses the nonce up, and refuses an unknown one', async () => {
    const nonce = await nonceFor('4000000000002701');
    expect(await processor.verifyThreeDSecure({ nonce })).toMatchObject({ ok: true });
    expect(await processor.verifyThreeDSecure({ nonce })).toMatchObject({ ok: false });
    expect(await processor.verifyThreeDSecure({ nonce: 'tokencc_nope' })).toMatchObject({ ok: false });
  });

  it.each([
    ['fake-three-d-secure-visa-full-authentication-nonce', 'approved', 'authenticate_successful', true],
    ['fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce', 'approved', 'authenticate_successful', true],
    ['fake-three-d-secure-two-visa-successful-step-up-authentication-nonce', 'approved', 'authenticate_successful', true],
    ['fake-three-d-secure-visa-failed-authentication-nonce', 'declined', 'authenticate_failed', false],
    ['fake-three-d-secure-visa-authentication-unavailable-nonce', 'declined', 'authenticate_unable_to_authenticate', false],
  ] as const)('%s under three_d_secure always: %s', async (nonce, outcome, status, liabilityShifted) => {
    expect(await processor.authorize(always(nonce))).toMatchObject({ outcome, threeDSecure: { status, liabilityShifted } });
  });
});

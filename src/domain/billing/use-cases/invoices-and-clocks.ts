import type { Deps } from '../../deps';
import { resourceMissing, TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Scope } from '../../shared/scope';
import { auditWrite } from '../../team/audit';
import type { Actor } from '../../team/entities';
import type { Invoice, InvoiceStatus, TestClock } from '../entities';
import type { Payment } from '../../payments/entities';
import { chargeInvoice, runBilling, settleInvoice } from './run-billing';
import { NOTICE_LEADS } from './notices';

/** One invoice of the scope. */
export async function getInvoice(deps: Deps, options: { scope: Scope; id: string }): Promise<Invoice> {
  const invoice = await deps.store.read((reader) => reader.invoices.get(options.scope, options.id));
  if (!invoice) throw resourceMissing('invoice', options.id);
  return invoice;
}

/** One page of the scope's invoices, newest first. */
export function listInvoices(
  deps: Deps,
  options: { scope: Scope; filter: { customerId?: string; subscriptionId?: string; status?: InvoiceStatus }; page: PageRequest },
): Promise<Page<Invoice>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.invoices.list(options.scope, { ...options.filter, ...page })));
}

/**
 * Charges an open (or uncollectible) invoice now (`POST /v1/invoices/:id/pay`), to its subscription's
 * payment method or `paymentMethodId`: answers the invoice, paid; a decline answers `card_declined`
 * with the attempt recorded and the next one planned as scheduled.
 */
export async function payInvoice(deps: Deps, options: { scope: Scope; actor: Actor | null; id: string; paymentMethodId?: string }): Promise<Invoice> {
  const invoice = await getInvoice(deps, options);
  const clockDeps = await onCustomerClock(deps, options.scope, invoice.testClockId);
  const charged = await chargeInvoice(clockDeps, invoice.id, { manual: true, scope: options.scope, paymentMethodId: options.paymentMethodId });
  await deps.store.transaction((tx) =>
    auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'invoice.pay', target: invoice.id, at: deps.clock.now() }),
  );
  return charged?.invoice ?? getInvoice(deps, options);
}

/** Voids an open invoice (`POST /v1/invoices/:id/void`): nothing more is charged for it. */
export async function voidInvoice(deps: Deps, options: { scope: Scope; actor: Actor | null; id: string }): Promise<Invoice> {
  return deps.store.transaction(async (tx) => {
    const invoice = await tx.invoices.get(options.scope, options.id, { forUpdate: true });
    if (!invoice) throw resourceMissing('invoice', options.id);
    if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
      throw new TillpointError('invoice_not_payable', `This invoice is ${invoice.status}; only an open or uncollectible invoice can be voided`);
    }
    const last = invoice.paymentId ? await tx.payments.get(null, invoice.paymentId) : null;
    if (last?.status === 'processing') throw new TillpointError('invoice_not_payable', 'A charge of this invoice is under way');
    const now = deps.clock.now();
    const voided: Invoice = { ...invoice, status: 'void', nextPaymentAttempt: null, voidedAt: now, updatedAt: now };
    await tx.invoices.update(voided);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'invoice.void', target: invoice.id, at: now });
    return voided;
  });
}

/**
 * Records on its invoice the outcome of a charge decided after its request answered (a bank debit
 * settled or declined, ADR 0108), as of the invoice's clock: paid, or failed with its retry planned,
 * exactly as the billing job's next run would (`settleInvoice`, safe to call any number of times).
 */
export async function settleInvoiceOfPayment(deps: Deps, payment: Pick<Payment, 'accountId' | 'mode' | 'invoiceId'>): Promise<Invoice | null> {
  if (!payment.invoiceId) return null;
  const scope = { accountId: payment.accountId, mode: payment.mode };
  const invoice = await deps.store.read((reader) => reader.invoices.get(scope, payment.invoiceId!));
  if (!invoice) return null;
  return settleInvoice(await onCustomerClock(deps, scope, invoice.testClockId), invoice.id);
}

/** `deps` with the clock of a customer on test clock `testClockId`, or as they are. */
async function onCustomerClock(deps: Deps, scope: Scope, testClockId: string | null): Promise<Deps> {
  if (!testClockId) return deps;
  const clock = await deps.store.read((reader) => reader.testClocks.get(scope, testClockId));
  return clock ? { ...deps, clock: { now: () => clock.frozenTime } } : deps;
}

function requireTestMode(scope: Scope) {
  if (scope.mode !== 'test') throw new TillpointError('wrong_mode', 'Test clocks exist in test mode only: use a test key');
}

/** A test clock (`POST /v1/test_helpers/test_clocks`), at `frozenTime`. */
export async function createTestClock(deps: Deps, options: { scope: Scope; actor: Actor | null; frozenTime: Date; name?: string | null }): Promise<TestClock> {
  requireTestMode(options.scope);
  const clock: TestClock = {
    id: newId('clock'),
    accountId: options.scope.accountId,
    mode: options.scope.mode,
    name: options.name ?? null,
    frozenTime: options.frozenTime,
    status: 'ready',
    createdAt: deps.clock.now(),
  };
  await deps.store.transaction(async (tx) => {
    await tx.testClocks.insert(clock);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'test_clock.create', target: clock.id, at: clock.createdAt });
  });
  return clock;
}

export async function getTestClock(deps: Deps, options: { scope: Scope; id: string }): Promise<TestClock> {
  requireTestMode(options.scope);
  const clock = await deps.store.read((reader) => reader.testClocks.get(options.scope, options.id));
  if (!clock) throw resourceMissing('test clock', options.id);
  return clock;
}

export function listTestClocks(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<TestClock>> {
  requireTestMode(options.scope);
  return readPage(options.page, (page) => deps.store.read((reader) => reader.testClocks.list(options.scope, page)));
}

/** Steps an advance takes at most: a year of daily renewals with every retry, and a margin. */
const MAX_STEPS = 5_000;

/**
 * Advances a test clock to `frozenTime` (`POST /v1/test_helpers/test_clocks/:id/advance`), running in
 * time order every renewal, retry and notice that falls due on the way, each as of its own moment, exactly as
 * the scheduler runs them on the wall clock. Answers once the clock reads `frozenTime` (`ready`).
 */
export async function advanceTestClock(deps: Deps, options: { scope: Scope; actor: Actor | null; id: string; frozenTime: Date }): Promise<TestClock> {
  requireTestMode(options.scope);
  const started = await deps.store.transaction(async (tx) => {
    const clock = await tx.testClocks.get(options.scope, options.id, { forUpdate: true });
    if (!clock) throw resourceMissing('test clock', options.id);
    if (clock.status === 'advancing') throw new TillpointError('test_clock_advancing', 'This test clock is advancing already; wait until it is ready');
    if (options.frozenTime <= clock.frozenTime) {
      throw new TillpointError('parameter_invalid', 'frozen_time must be later than the clock reads now', { param: 'frozen_time' });
    }
    const advancing: TestClock = { ...clock, status: 'advancing' };
    await tx.testClocks.update(advancing);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'test_clock.advance', target: clock.id, at: deps.clock.now() });
    return advancing;
  });
  const target = options.frozenTime;
  let reached = started.frozenTime;
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      const [renewal, attempt, notice] = await deps.store.read((reader) =>
        Promise.all([
          reader.subscriptions.nextRenewalOnClock(started.id),
          reader.invoices.nextAttemptOnClock(started.id),
          reader.subscriptions.nextNoticeOnClock(started.id, reached, NOTICE_LEADS),
        ]),
      );
      const due = [renewal, attempt, notice].filter((at): at is Date => at !== null && at <= target).sort((x, y) => x.getTime() - y.getTime())[0];
      if (!due) break;
      const at = new Date(Math.max(due.getTime(), reached.getTime()));
      reached = at;
      const report = await runBilling({ ...deps, clock: { now: () => at } }, { testClockId: started.id });
      if (report.renewed === 0 && report.charged === 0 && report.notices === 0) break;
    }
    await runBilling({ ...deps, clock: { now: () => target } }, { testClockId: started.id });
  } finally {
    await deps.store.transaction((tx) => tx.testClocks.update({ ...started, frozenTime: target, status: 'ready' }));
  }
  return { ...started, frozenTime: target, status: 'ready' };
}

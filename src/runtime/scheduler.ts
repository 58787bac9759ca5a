import type { Deps } from '../domain/deps';
import { purgeExpiredApiRecords } from '../domain/api-guards/use-cases/purge-expired-api-records';
import { expireOverdueSessions } from '../domain/sessions/use-cases/expire-overdue-sessions';
import { reconcileFollowUpOperations } from '../domain/payments/use-cases/reconcile-follow-up-operations';
import { reconcileProcessingPayments } from '../domain/payments/use-cases/reconcile-processing-payments';
import { voidExpiredAuthorizations } from '../domain/payments/use-cases/void-expired-authorizations';
import { purgeExpiredCspReports } from '../domain/checkout-page/use-cases/purge-expired-csp-reports';
import { catchUpDisputes } from '../domain/disputes/use-cases/catch-up-disputes';
import { runBilling } from '../domain/billing/use-cases/run-billing';
import { expireLocalPayments, receiveTestLocalPayments } from '../domain/payments/use-cases/record-local-payment-report';
import { receiveTestBankDebits } from '../domain/payments/use-cases/record-bank-debit-report';

/** What a job may report through. */
export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** A periodic job. Every one is safe to run in several instances at once (row locks, checked transitions). */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  /** Run once as the server starts, not only after the first interval. */
  atStart: boolean;
  run(deps: Deps, log: JobLog): Promise<unknown>;
}

export const periodicJobs: readonly PeriodicJob[] = [
  {
    name: 'session-expiry',
    everyMs: 60_000,
    atStart: false,
    run: (deps) => expireOverdueSessions(deps),
  },
  {
    // A restart must never leave a payment stuck in `processing`: often enough that a payment is
    // final within this interval of its lease running out (docs/reliability.md).
    name: 'reconciliation',
    everyMs: 15_000,
    atStart: true,
    run: (deps, log) =>
      reconcileProcessingPayments(deps, {
        onError: (paymentId, err) => log.error({ err, paymentId }, 'reconciliation of a payment failed'),
        onLateCharge: (paymentId, undone) =>
          log.info({ paymentId, undone }, 'the processor charged a payment after it had failed as unknown; that charge was undone'),
      }),
  },
  {
    // Captures, voids and refunds whose answer was lost: never left reserved or stuck. As often as
    // payments' reconciliation, so each is final within this interval of its lease running out.
    name: 'operation-reconciliation',
    everyMs: 15_000,
    atStart: true,
    run: (deps, log) =>
      reconcileFollowUpOperations(deps, {
        onError: (objectId, err) => log.error({ err, objectId }, 'reconciliation of a capture, void or refund failed'),
      }),
  },
  {
    name: 'authorization-auto-void',
    everyMs: 10 * 60_000,
    atStart: true,
    run: (deps, log) =>
      voidExpiredAuthorizations(deps, {
        onError: (paymentId, err) => log.error({ err, paymentId }, 'auto-void of an expired authorization failed'),
      }),
  },
  {
    // The test processor's disputes (its dispute test card) arrive this way, some seconds after capture.
    name: 'test-processor-disputes',
    everyMs: 5_000,
    atStart: true,
    run: (deps, log) =>
      catchUpDisputes(deps, {
        processor: 'test',
        onError: (scope, err) => log.error({ err, account: scope.accountId, mode: scope.mode }, 'reading the test processor disputes failed'),
      }),
  },
  {
    // The test processor's local payments (iDEAL…) its bank confirms some seconds after the shopper
    // approved them in the test window: what Braintree's LOCAL_PAYMENT_COMPLETED notifications are.
    name: 'test-processor-local-payments',
    everyMs: 2_000,
    atStart: true,
    run: (deps, log) =>
      receiveTestLocalPayments(deps, {
        onError: (processorPaymentId, err) => log.error({ err, processorPaymentId }, 'recording a test local payment failed'),
      }),
  },
  {
    // The test processor's bank debits (ACH) settling, declined or returned some seconds after their
    // sale: what Braintree's TRANSACTION_SETTLED / TRANSACTION_SETTLEMENT_DECLINED notifications are.
    name: 'test-processor-bank-debits',
    everyMs: 2_000,
    atStart: true,
    run: (deps, log) =>
      receiveTestBankDebits(deps, {
        onError: (transactionId, err) => log.error({ err, transactionId }, 'recording a test bank debit failed'),
      }),
  },
  {
    // Local payments whose bank never confirmed them within 3 hours (Braintree gives the money back).
    name: 'local-payment-expiry',
    everyMs: 60_000,
    atStart: true,
    run: (deps, log) =>
      expireLocalPayments(deps, {
        onError: (paymentId, err) => log.error({ err, paymentId }, 'the 3-hour check of a local payment failed'),
      }),
  },
  {
    // Braintree's dispute notifications missed while the server was down: a dispute.search per account.
    name: 'braintree-dispute-catch-up',
    everyMs: 15 * 60_000,
    atStart: true,
    run: (deps, log) =>
      catchUpDisputes(deps, {
        processor: 'braintree',
        onError: (scope, err) => log.error({ err, account: scope.accountId, mode: scope.mode }, 'the Braintree dispute search failed'),
      }),
  },
  {
    // Subscriptions renewed, invoices charged and retried on the wall clock (docs/billing.md); test
    // clocks run theirs when advanced.
    name: 'billing',
    everyMs: 60_000,
    atStart: true,
    run: (deps) => runBilling(deps),
  },
  {
    // Idempotency records older than 24 h and past rate-limit windows.
    name: 'api-records-purge',
    everyMs: 10 * 60_000,
    atStart: false,
    run: (deps) => purgeExpiredApiRecords(deps),
  },
  {
    // CSP violation reports are kept 90 days.
    name: 'csp-reports-purge',
    everyMs: 60 * 60_000,
    atStart: false,
    run: (deps) => purgeExpiredCspReports(deps),
  },
];

/**
 * PCI DSS 11.6.1: fingerprints the checkout page at start and every `minutes` and alerts on a
 * difference from each account's baseline. It needs the running HTTP server, so the caller adds it.
 */
export function checkoutPageCheckJob(page: { check(deps: Deps): Promise<unknown> }, minutes: number): PeriodicJob {
  return { name: 'checkout-page-check', everyMs: minutes * 60_000, atStart: true, run: (deps) => page.check(deps) };
}

/** Runs one job by name, now: for tests (with a TestClock) and operators. */
export async function runJobOnce(deps: Deps, name: string, log: JobLog = silentLog): Promise<unknown> {
  const job = periodicJobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no periodic job named ${name}`);
  return job.run(deps, log);
}

export interface Scheduler {
  /** Stops the timers and waits for runs under way. */
  stop(): Promise<void>;
}

/** Starts every periodic job on its interval; a run never overlaps the previous run of the same job. */
export function startScheduler(deps: Deps, log: JobLog, jobs: readonly PeriodicJob[] = periodicJobs): Scheduler {
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  const tick = (job: PeriodicJob) => {
    if (running.has(job.name)) return;
    const run = job
      .run(deps, log)
      .then(
        () => undefined,
        (err: unknown) => log.error({ err, job: job.name }, 'periodic job failed'),
      )
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };
  for (const job of jobs) {
    if (job.atStart) tick(job);
    const timer = setInterval(() => tick(job), job.everyMs);
    timer.unref();
    timers.push(timer);
  }
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}

const silentLog: JobLog = { info: () => undefined, error: () => undefined };

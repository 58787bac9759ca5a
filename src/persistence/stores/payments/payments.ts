import { payments, type Payment } from '../../../domain/payments/entities';
import { SessionBusyError, type OutcomeAnswer, type PaymentOutcome } from '../../../domain/payments/ports';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { scopedListQuery } from '../../list-query';
import { assignments, fieldValues, isUniqueViolation, placeholders, record, recordPart, recordSet, scopeClause, toPayment, type Field } from '../../rows';
import { columnsOf } from '../../resource-rows';
import { sessionFields } from '../sessions/checkout-sessions';
import { deliveriesOfNewEvents, eventFields } from '../webhooks/endpoints-and-deliveries';
import { runShared, SKIPPED, type SharedStatement } from '../../shared-statement';
import type { CheckoutSession } from '../../../domain/sessions/entities';

/** The columns a payment's writes set after its creation, in this order; a new payment also sets its fixed ones. */
const paymentFields = columnsOf(payments, 'updated');
const paymentColumns = paymentFields.map(([column]) => column);
const paymentValues = (p: Payment) => fieldValues(paymentFields, p);

/** Every field a new payment is written with, and their columns. */
const newPaymentFields = columnsOf(payments);
const insertColumns = newPaymentFields.map(([column]) => column).join(', ');

/**
 * The session as the caller read it: the intent and the outcome go ahead only if it is still so.
 * Its last update is compared to the millisecond, all a read of it carries.
 */
const expectedSessionFields: readonly Field<CheckoutSession>[] = [
  ['id', 'text', (s) => s.id],
  ['status', 'text', (s) => s.status],
  ['updated_at', 'timestamptz', (s) => s.updatedAt],
];

/**
 * The columns a session's completion by its payment changes (`sessionCompletion` in
 * domain/payments/rules.ts, with the transition's status and update time). The outcome writes these
 * alone, on a row it found still as it was read, so its record carries no more of the session;
 * `recordOutcome` refuses a completion that would change any other column.
 */
const completionColumns = new Set(['status', 'customer_email', 'completed_at', 'payment_id', 'updated_at']);
const completionFields = sessionFields.filter(([column]) => completionColumns.has(column));
const otherSessionFields = sessionFields.filter(([column]) => !completionColumns.has(column));

/** The first column besides the completion's whose value `next` changes, if any. */
function changedBeyondCompletion({ next, expected }: NonNullable<PaymentOutcome['session']>): string | null {
  for (const [column, , value] of otherSessionFields) if (value(next) !== value(expected)) return column;
  return null;
}

type Intent = { payment: Payment; session: CheckoutSession };

/** An intent's record: the session as read (`session_…`), the new payment (`p_…`). */
const intentRecord = record(
  recordPart(expectedSessionFields, 'session_', (m: Intent) => m.session),
  recordPart(newPaymentFields, 'p_', (m: Intent) => m.payment),
);

/** A row lock as a statement shared with strangers takes it (skipping rows locked elsewhere), or alone. */
type Lock = 'FOR UPDATE SKIP LOCKED' | 'FOR UPDATE';

/**
 * Payments' intents, each on its session as read: the session's row lock, taken first, serializes
 * the intent with an expiry or another attempt (and with `recordOutcome`, which locks in the same
 * order); the session must still have the status and last update it was read with (the caller
 * decided it payable from that read); the one-payment index decides a busy session. Answers
 * `inserted`, `busy`, `session_changed` (nothing written) or, shared, `skipped`: the session's row
 * is locked elsewhere (shared-statement.ts).
 */
const intentSql = (lock: Lock) => `
  WITH i AS MATERIALIZED (${recordSet(intentRecord.columns)}),
   held AS MATERIALIZED (
     SELECT s.id, s.status, date_trunc('milliseconds', s.updated_at) AS updated_at
       FROM checkout_sessions s WHERE s.id = ANY (ARRAY(SELECT session_id FROM i)) ${lock}),
   ins AS (
     INSERT INTO payments (${insertColumns})
     SELECT ${newPaymentFields.map(([column]) => `i.p_${column}`).join(', ')}
       FROM i JOIN held ON held.id = i.session_id AND held.status = i.session_status AND held.updated_at = i.session_updated_at
     ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING
     RETURNING id)
   SELECT i.n, CASE
       WHEN i.p_id IN (SELECT id FROM ins) THEN 'inserted'
       WHEN held.status = i.session_status AND held.updated_at = i.session_updated_at THEN 'busy'
       WHEN held.id IS NULL AND EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.id = i.session_id) THEN 'skipped'
       ELSE 'session_changed' END AS result
     FROM i LEFT JOIN held ON held.id = i.session_id`;

const intents: SharedStatement<Intent, 'inserted' | 'busy' | 'session_changed'> = {
  shared: intentSql('FOR UPDATE SKIP LOCKED'),
  alone: intentSql('FOR UPDATE'),
  key: ({ session }) => session.id,
  member: intentRecord.values,
  answer: (row) => (row.result === 'skipped' ? SKIPPED : (row.result as 'inserted' | 'busy' | 'session_changed')),
};

type SessionOutcome = NonNullable<PaymentOutcome['session']>;

/**
 * An outcome's record: the payment's id and the status it is expected in, its new state (`p_…`);
 * with a session, the session as read (`session_…`), when its exposures convert, and its completion's
 * columns (`s_…`); each one's event where it has one (`pe_…`, `se_…`).
 */
const outcomeRecord = record(
  recordPart<PaymentOutcome, PaymentOutcome>(
    [
      ['payment_id', 'text', (o) => o.payment.id],
      ['expected_status', 'text', (o) => o.expectedStatus],
    ],
    '',
    (o) => o,
  ),
  recordPart(paymentFields, 'p_', (o: PaymentOutcome) => o.payment),
  recordPart(expectedSessionFields, 'session_', (o: PaymentOutcome) => o.session?.expected),
  recordPart<PaymentOutcome, SessionOutcome>([['converts_exposures_at', 'timestamptz', (s) => s.convertsExposuresAt]], '', (o) => o.session),
  recordPart(completionFields, 's_', (o: PaymentOutcome) => o.session?.next),
  recordPart(eventFields, 'pe_', (o: PaymentOutcome) => o.event),
  recordPart(eventFields, 'se_', (o: PaymentOutcome) => o.session?.event),
);
const eventColumns = eventFields.map(([column]) => column);

/**
 * Processors' outcomes (`PaymentRepository.recordOutcome`), each member's whole outcome written in
 * one statement, or nothing of it. The rows are locked first, the session before the payment (as
 * the intent locks them: no deadlock). A member is `ready` when its payment is still in the status
 * it is expected in and its session (if it has one) still as it was read: only ready members are
 * written — the payment's new state, the session's completion, the conversion of the session's
 * exposures, the events and their webhook deliveries. The answer says which: `recorded`;
 * `payment_moved` or `session_changed` (nothing written); or, shared, `skipped` when a row it
 * needs is locked elsewhere (shared-statement.ts). A ready member's payment and session move
 * together, or the statement fails: `tillpoint_check` (migration 0046) says so, in words.
 */
const outcomeSql = (lock: Lock) => `
  WITH i AS MATERIALIZED (${recordSet(outcomeRecord.columns)}),
   held_sessions AS MATERIALIZED (
     SELECT s.id, s.status, date_trunc('milliseconds', s.updated_at) AS updated_at
       FROM checkout_sessions s WHERE s.id = ANY (ARRAY(SELECT session_id FROM i)) ${lock}),
   held_payments AS MATERIALIZED (
     SELECT p.id, p.status FROM payments p WHERE p.id = ANY (ARRAY(SELECT payment_id FROM i)) ${lock}),
   ready AS MATERIALIZED (
     SELECT i.n, i.payment_id, i.session_id FROM i
       JOIN held_payments p ON p.id = i.payment_id AND p.status = i.expected_status
       LEFT JOIN held_sessions s ON s.id = i.session_id
      WHERE i.session_id IS NULL OR (s.status = i.session_status AND s.updated_at = i.session_updated_at)),
   moved AS (
     UPDATE payments p SET ${paymentColumns.map((column) => `${column} = i.p_${column}`).join(', ')}
       FROM i
      WHERE p.id = ANY (ARRAY(SELECT payment_id FROM ready)) AND p.id = i.payment_id
     RETURNING i.n),
   completed AS (
     UPDATE checkout_sessions s SET ${completionFields.map(([column]) => `${column} = i.s_${column}`).join(', ')}
       FROM i
      WHERE s.id = ANY (ARRAY(SELECT session_id FROM ready)) AND s.id = i.session_id
     RETURNING i.n),
   converted AS (
     UPDATE experiment_exposures x SET converted_at = i.converts_exposures_at
       FROM i
      WHERE x.checkout_session_id = ANY (ARRAY(SELECT session_id FROM ready)) AND x.checkout_session_id = i.session_id
        AND x.converted_at IS NULL AND i.converts_exposures_at IS NOT NULL),
   new_events AS (
     INSERT INTO events (${eventColumns.join(', ')})
     SELECT ${eventColumns.map((column) => `i.pe_${column}`).join(', ')} FROM i WHERE i.pe_id IS NOT NULL AND i.n IN (SELECT n FROM ready)
     UNION ALL
     SELECT ${eventColumns.map((column) => `i.se_${column}`).join(', ')} FROM i WHERE i.se_id IS NOT NULL AND i.n IN (SELECT n FROM ready)
     RETURNING id, account_id, mode, type, created_at),
   deliveries AS (
     ${deliveriesOfNewEvents('new_events')})
   SELECT i.n, CASE
       WHEN i.n IN (SELECT n FROM ready) THEN
         CASE WHEN tillpoint_check(
                i.n IN (SELECT n FROM moved) AND (i.session_id IS NULL OR i.n IN (SELECT n FROM completed)),
                'payment ' || i.payment_id || ' and its session ' || coalesce(i.session_id, '(none)') || ' must move together')
           THEN 'recorded' END
       WHEN i.payment_id NOT IN (SELECT id FROM held_payments) AND EXISTS (SELECT 1 FROM payments p WHERE p.id = i.payment_id) THEN 'skipped'
       WHEN i.session_id NOT IN (SELECT id FROM held_sessions) AND EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.id = i.session_id) THEN 'skipped'
       WHEN NOT EXISTS (SELECT 1 FROM held_payments p WHERE p.id = i.payment_id AND p.status = i.expected_status) THEN 'payment_moved'
       ELSE 'session_changed' END AS result
     FROM i`;

const outcomes: SharedStatement<PaymentOutcome, OutcomeAnswer> = {
  shared: outcomeSql('FOR UPDATE SKIP LOCKED'),
  alone: outcomeSql('FOR UPDATE'),
  key: ({ payment, session }) => session?.expected.id ?? payment.id,
  member: outcomeRecord.values,
  answer: (row) => (row.result === 'skipped' ? SKIPPED : (row.result as OutcomeAnswer)),
};

/** Payments: at most one holding a session (the one-payment index decides), updated on their expected status. */
export function paymentRepositories(db: SqlExecutor): Pick<UnitOfWork, 'payments'> {
  return {
    payments: {
      async insert(p) {
        let inserted: number;
        try {
          // A session that already holds a payment makes this insert a no-op, not an error, so the
          // transaction stays usable (PGlite refuses to commit one that saw an error).
          ({ rowCount: inserted } = await db.query(
            `INSERT INTO payments (${insertColumns})
             VALUES (${placeholders(1, newPaymentFields.length)})
             ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING`,
            fieldValues(newPaymentFields, p),
          ));
        } catch (error) {
          if (isUniqueViolation(error, 'payments_one_holding_per_session')) throw new SessionBusyError(p.checkoutSessionId ?? p.id);
          throw error;
        }
        if (inserted === 0) throw new SessionBusyError(p.checkoutSessionId ?? p.id);
      },
      insertForSession: (payment, session) => runShared(db, intents, { payment, session }),
      recordOutcome: (outcome) => {
        const changed = outcome.session ? changedBeyondCompletion(outcome.session) : null;
        if (changed) return Promise.reject(new Error(`A payment's outcome would change its session's ${changed}, which it does not write`));
        return runShared(db, outcomes, outcome);
      },
      async get(scope, id, options = {}) {
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(`SELECT * FROM payments WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`, [id, ...scoped.params]);
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async listInStatusCreatedBefore(status, before, limit) {
        const { rows } = await db.query(
          // A processing payment with its transaction is a bank debit waiting for its settlement: its report decides it.
          `SELECT * FROM payments WHERE status = $1 AND created_at <= $2 AND processor_payment_id IS NULL
              AND (status <> 'processing' OR processor_transaction_id IS NULL)
            ORDER BY created_at, id LIMIT $3`,
          [status, before, limit],
        );
        return rows.map(toPayment);
      },
      async listAwaitingBankCreatedBefore(before, limit) {
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE status = 'processing' AND processor_payment_id IS NOT NULL AND created_at <= $1 ORDER BY created_at, id LIMIT $2`,
          [before, limit],
        );
        return rows.map(toPayment);
      },
      async findByProcessorPaymentId(scope, processor, processorPaymentId) {
        const { rows } = await db.query('SELECT * FROM payments WHERE processor_payment_id = $1 AND account_id = $2 AND mode = $3 AND processor = $4', [
          processorPaymentId,
          scope.accountId,
          scope.mode,
          processor,
        ]);
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async update(p, expectedStatus) {
        const { rowCount } = await db.query(`UPDATE payments SET ${assignments(paymentColumns, 3)} WHERE id = $1 AND status = $2`, [
          p.id,
          expectedStatus,
          ...paymentValues(p),
        ]);
        return rowCount === 1;
      },
      async findByProcessorTransactionId(scope, processor, transactionId) {
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE processor_transaction_id = $1 AND account_id = $2 AND mode = $3 AND processor = $4
            ORDER BY created_at DESC LIMIT 1`,
          [transactionId, scope.accountId, scope.mode, processor],
        );
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async holdingSession(sessionId) {
        const { rows } = await db.query(`SELECT * FROM payments WHERE checkout_session_id = $1 AND status <> 'failed'`, [sessionId]);
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async list(scope, filter) {
        const query = scopedListQuery('payments', scope, filter, [
          ...(filter.checkoutSessionId ? [{ column: 'checkout_session_id', value: filter.checkoutSessionId }] : []),
          ...(filter.invoiceId ? [{ column: 'invoice_id', value: filter.invoiceId }] : []),
        ]);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toPayment);
      },
    },
  };
}

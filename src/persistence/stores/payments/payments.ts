import type { Payment } from '../../../domain/payments/entities';
import { SessionBusyError, type PaymentOutcome } from '../../../domain/payments/ports';
import type { UnitOfWork } from '../../../domain/deps';
import { COALESCED_MOST, coalescedLanes, isDatabaseUnreachable, type SqlClient, type SqlExecutor } from '../../sql-client';
import { StatementCoalescer, type Statement } from '../../coalescer';
import { scopedListQuery } from '../../list-query';
import { assignments, fieldValues, isUniqueViolation, jsonMembers, placeholders, recordColumns, recordMembers, scopeClause, toPayment, type Field } from '../../rows';
import { sessionColumns, sessionFields } from '../sessions/checkout-sessions';
import { eventFields, eventsWithDeliveriesOfRecords } from '../webhooks/endpoints-and-deliveries';

/** The columns a payment's writes set after its creation, in this order. */
const paymentFields: readonly Field<Payment>[] = [
  ['status', 'text', (p) => p.status],
  ['amount_captured', 'bigint', (p) => p.amountCaptured],
  ['amount_refunded', 'bigint', (p) => p.amountRefunded],
  ['customer_email', 'text', (p) => p.customerEmail],
  ['payment_method', 'jsonb', (p) => p.paymentMethod],
  ['processor', 'text', (p) => p.processor],
  ['processor_transaction_id', 'text', (p) => p.processorTransactionId],
  ['processor_response', 'jsonb', (p) => p.processorResponse],
  ['failure_code', 'text', (p) => p.failureCode],
  ['decline_code', 'text', (p) => p.declineCode],
  ['three_d_secure', 'jsonb', (p) => p.threeDSecure],
  ['updated_at', 'timestamptz', (p) => p.updatedAt],
];
const paymentColumns = paymentFields.map(([column]) => column);
const paymentValues = (p: Payment) => fieldValues(paymentFields, p);

/** What a payment is created with, besides `paymentFields`. */
const createdFields: readonly Field<Payment>[] = [
  ['id', 'text', (p) => p.id],
  ['account_id', 'text', (p) => p.accountId],
  ['mode', 'text', (p) => p.mode],
  ['checkout_session_id', 'text', (p) => p.checkoutSessionId],
  ['amount', 'bigint', (p) => p.amount],
  ['currency', 'text', (p) => p.currency],
  ['capture_method', 'text', (p) => p.captureMethod],
  ['created_at', 'timestamptz', (p) => p.createdAt],
];

const createdColumns = createdFields.map(([column]) => column).join(', ');
/** Every column a new payment is written with. */
const insertColumns = `${createdColumns}, ${paymentColumns.join(', ')}`;

/**
 * The statements below read their items with a LIMIT of the most a group holds: without it
 * PostgreSQL takes a JSON record set for 100 rows and may scan a whole table rather than look up a
 * handful of rows by key; with it the estimate is the same whatever the items, so the plan is made
 * once (a generic plan) and kept. A longer list would lose items, so it is refused.
 */
function atMostCoalesced(items: unknown[]): void {
  if (items.length > COALESCED_MOST) throw new Error(`at most ${COALESCED_MOST} items in one statement, not ${items.length}`);
}

/**
 * Intents for sessions still open as read, any number in one statement (coalescer.ts): each
 * session's row lock, taken first (in id order) as the transactional path takes it, serializes the
 * intent with an expiry or another attempt; the one-payment index decides a busy session. Each
 * intent's result: 2 inserted, 1 open but busy, 0 not open.
 */
const intentsSql = `WITH i AS MATERIALIZED (
     SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS i(n int, at timestamptz, ${recordColumns(createdFields, '')}, ${recordColumns(paymentFields, 'p_')})
     LIMIT ${COALESCED_MOST}),
   locked AS MATERIALIZED (
     SELECT s.id, s.status, s.expires_at, s.account_id, s.mode, s.amount_total, s.currency, s.capture_method
       FROM i JOIN checkout_sessions s ON s.id = i.checkout_session_id ORDER BY s.id FOR UPDATE OF s),
   still_open AS MATERIALIZED (
     SELECT i.* FROM i JOIN locked s ON s.id = i.checkout_session_id
      WHERE s.status = 'open' AND s.expires_at > i.at AND s.account_id = i.account_id AND s.mode = i.mode
        AND s.amount_total = i.amount AND s.currency = i.currency AND s.capture_method = i.capture_method),
   ins AS (
     INSERT INTO payments (${insertColumns})
     SELECT ${createdColumns}, ${paymentColumns.map((column) => `p_${column}`).join(', ')} FROM still_open
     ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING
     RETURNING id)
   SELECT i.n, (i.id IN (SELECT id FROM still_open))::int + (i.id IN (SELECT id FROM ins))::int AS result FROM i`;

/** A payment's intent for a session still open at `at`. */
interface Intent {
  payment: Payment;
  at: Date;
}

function intentsStatement(intents: Intent[]): Statement {
  atMostCoalesced(intents);
  const records = intents.map(
    ({ payment, at }, n) =>
      `{${jsonMembers({ n, at })},${recordMembers(createdFields, payment, '')},${recordMembers(paymentFields, payment, 'p_')}}`,
  );
  return { text: intentsSql, params: [`[${records.join(',')}]`] };
}

/**
 * Processors' outcomes (`PaymentRepository.recordOutcome`), any number in one statement. Each
 * session is locked first, in id order, as the intent locks it (session, then payment: no
 * deadlock), and only as it was read. A payment moves only under that lock; its session, the
 * session's exposures and its event only when the payment moved. Each outcome's result: 1 when
 * its payment moved. A payment that moved without its session (which the lock rules out) divides
 * by zero: the statement fails and writes nothing, rather than leave a won payment's session open.
 */
const outcomesSql = `WITH i AS MATERIALIZED (
     SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS i(n int, payment_id text, expected_status text, ${recordColumns(paymentFields, 'p_')},
            session_id text, session_status text, session_updated_at timestamptz, converted_at timestamptz,
            ${recordColumns(sessionFields, 's_')}, ${recordColumns(eventFields, 'pe_')}, ${recordColumns(eventFields, 'se_')})
     LIMIT ${COALESCED_MOST}),
   locked AS MATERIALIZED (
     SELECT s.id FROM checkout_sessions s JOIN i ON i.session_id = s.id AND i.session_status = s.status AND i.session_updated_at = s.updated_at
      ORDER BY s.id FOR UPDATE OF s),
   moved AS (
     UPDATE payments p SET ${paymentColumns.map((column) => `${column} = i.p_${column}`).join(', ')}
       FROM i
      WHERE p.id = i.payment_id AND p.status = i.expected_status
        AND (i.session_id IS NULL OR i.session_id IN (SELECT id FROM locked))
     RETURNING p.id),
   completed AS (
     UPDATE checkout_sessions s SET ${sessionColumns.map((column) => `${column} = i.s_${column}`).join(', ')}
       FROM i
      WHERE s.id = i.session_id AND s.status = i.session_status AND i.payment_id IN (SELECT id FROM moved)
     RETURNING s.id),
   converted AS (
     UPDATE experiment_exposures x SET converted_at = i.converted_at
       FROM i
      WHERE x.checkout_session_id = i.session_id AND x.converted_at IS NULL AND i.session_id IN (SELECT id FROM completed)),
   ${eventsWithDeliveriesOfRecords('payment_events', 'pe_', 'i.payment_id IN (SELECT id FROM moved)')},
   ${eventsWithDeliveriesOfRecords('session_events', 'se_', 'i.session_id IN (SELECT id FROM completed)')}
   SELECT i.n, (i.payment_id IN (SELECT id FROM moved))::int
            / (CASE WHEN i.session_id IS NOT NULL AND i.payment_id IN (SELECT id FROM moved) AND i.session_id NOT IN (SELECT id FROM completed)
                    THEN 0 ELSE 1 END) AS result
     FROM i`;

function outcomesStatement(outcomes: PaymentOutcome[]): Statement {
  atMostCoalesced(outcomes);
  // Written as JSON text directly (rows.ts, recordMembers): the same record as an object would give.
  const records = outcomes.map(({ payment, expectedStatus, event, session }, n) => {
    let record = `{${jsonMembers({ n, payment_id: payment.id, expected_status: expectedStatus })},${recordMembers(paymentFields, payment, 'p_')}`;
    if (event) record += `,${recordMembers(eventFields, event, 'pe_')}`;
    if (session) {
      record += `,${jsonMembers({
        session_id: session.expected.id,
        session_status: session.expected.status,
        session_updated_at: session.expected.updatedAt,
        converted_at: session.convertedAt,
      })},${recordMembers(sessionFields, session.next, 's_')}`;
      if (session.event) record += `,${recordMembers(eventFields, session.event, 'se_')}`;
    }
    return `${record}}`;
  });
  return { text: outcomesSql, params: [`[${records.join(',')}]`] };
}

/** Payments: at most one holding a session (the one-payment index decides), updated on their expected status. */
export function paymentRepositories(db: SqlExecutor): Pick<UnitOfWork, 'payments'> {
  // Outside a transaction, the intents and the outcomes of payments under way at once are each
  // written in one statement (coalescer.ts); in one, each goes alone on the transaction's connection.
  // Built at first use: most units of work never record a payment this way.
  const together = <I extends { payment: Payment }>(statement: (items: I[]) => Statement) =>
    new StatementCoalescer(
      (text, params) => db.query(text, params),
      statement,
      ({ payment }) => payment.checkoutSessionId,
      'kind' in db ? coalescedLanes((db as SqlClient).kind) : { inFlight: Infinity, most: 1 },
      isDatabaseUnreachable,
    );
  let intents: StatementCoalescer<Intent> | undefined;
  let outcomes: StatementCoalescer<PaymentOutcome> | undefined;
  return {
    payments: {
      async insert(p) {
        let inserted: number;
        try {
          // A session that already holds a payment makes this insert a no-op, not an error, so the
          // transaction stays usable (PGlite refuses to commit one that saw an error).
          ({ rowCount: inserted } = await db.query(
            `INSERT INTO payments (${insertColumns})
             VALUES (${placeholders(1, createdFields.length + paymentFields.length)})
             ON CONFLICT (checkout_session_id) WHERE status <> 'failed' DO NOTHING`,
            [...fieldValues(createdFields, p), ...paymentValues(p)],
          ));
        } catch (error) {
          if (isUniqueViolation(error, 'payments_one_holding_per_session')) throw new SessionBusyError(p.checkoutSessionId);
          throw error;
        }
        if (inserted === 0) throw new SessionBusyError(p.checkoutSessionId);
      },
      insertForOpenSession: async (payment, at) => {
        const found = Number(await (intents ??= together(intentsStatement)).run({ payment, at }));
        return found === 2 ? 'inserted' : found === 1 ? 'busy' : 'not_open';
      },
      recordOutcome: async (outcome) => Number(await (outcomes ??= together(outcomesStatement)).run(outcome)) === 1,
      async get(scope, id, options = {}) {
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [id, ...scoped.params],
        );
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async listInStatusCreatedBefore(status, before, limit) {
        const { rows } = await db.query(
          'SELECT * FROM payments WHERE status = $1 AND created_at <= $2 ORDER BY created_at, id LIMIT $3',
          [status, before, limit],
        );
        return rows.map(toPayment);
      },
      async update(p, expectedStatus) {
        const { rowCount } = await db.query(
          `UPDATE payments SET ${assignments(paymentColumns, 3)} WHERE id = $1 AND status = $2`,
          [p.id, expectedStatus, ...paymentValues(p)],
        );
        return rowCount === 1;
      },
      async holdingSession(sessionId) {
        const { rows } = await db.query(
          `SELECT * FROM payments WHERE checkout_session_id = $1 AND status <> 'failed'`,
          [sessionId],
        );
        return rows[0] ? toPayment(rows[0]) : null;
      },
      async list(scope, filter) {
        const query = scopedListQuery(
          'payments',
          scope,
          filter,
          filter.checkoutSessionId ? [{ column: 'checkout_session_id', value: filter.checkoutSessionId }] : [],
        );
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toPayment);
      },
    },
  };
}

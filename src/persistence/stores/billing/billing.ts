import { invoices, subscriptions, testClocks, type RecurringInterval } from '../../../domain/billing/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { Scope } from '../../../domain/shared/scope';
import { scopedGetQuery, scopedListQuery, type ListFilter } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { assignments, fieldValues, placeholders, type Row } from '../../rows';
import type { ResourceDefinition } from '../../../domain/shared/resource-shape';

/** The insert and update statements of a resource, as its definition says (resource-rows.ts). */
function statementsOf<R extends ResourceDefinition>(definition: R) {
  const all = columnsOf(definition);
  const updated = columnsOf(definition, 'updated');
  return {
    read: rowReader(definition),
    all,
    updated,
    insert: `INSERT INTO ${definition.table} (${all.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, all.length)})`,
    update: `UPDATE ${definition.table} SET ${assignments(
      updated.map(([column]) => column),
      2,
    )} WHERE id = $1`,
  };
}

const clockRows = statementsOf(testClocks);
const subscriptionRows = statementsOf(subscriptions);
const invoiceRows = statementsOf(invoices);

/** One row by id: within `scope`, or any (background work, which found it itself). */
function getQuery(table: string, scope: Scope | null, id: string, forUpdate = false) {
  const query = scope ? scopedGetQuery(table, scope, id) : { text: `SELECT * FROM ${table} WHERE id = $1`, params: [id] };
  return { text: query.text + (forUpdate ? ' FOR UPDATE' : ''), params: query.params };
}

/** `test_clock_id IS NULL` (the wall clock) or `= $n` (one test clock). */
function onClock(testClockId: string | null, params: unknown[]): string {
  if (testClockId === null) return 'test_clock_id IS NULL';
  params.push(testClockId);
  return `test_clock_id = $${params.length}`;
}

/** Test clocks, subscriptions and invoices (docs/billing.md). */
export function billingRepositories(db: SqlExecutor): Pick<UnitOfWork, 'testClocks' | 'subscriptions' | 'invoices'> {
  return {
    testClocks: {
      async insert(clock) {
        await db.query(clockRows.insert, fieldValues(clockRows.all, clock));
      },
      async get(scope, id, options = {}) {
        const query = getQuery(testClocks.table, scope, id, options.forUpdate);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? clockRows.read(rows[0]) : null;
      },
      async update(clock) {
        await db.query(clockRows.update, [clock.id, ...fieldValues(clockRows.updated, clock)]);
      },
      async list(scope, page) {
        const query = scopedListQuery(testClocks.table, scope, page);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(clockRows.read);
      },
    },
    subscriptions: {
      async insert(subscription) {
        const { rowCount } = await db.query(`${subscriptionRows.insert} ON CONFLICT DO NOTHING`, fieldValues(subscriptionRows.all, subscription));
        return rowCount === 1;
      },
      async listCheckoutsToStart(limit, since) {
        const { rows } = await db.query<{ id: string }>(
          `SELECT cs.id FROM checkout_sessions cs
            WHERE cs.purpose = 'subscription' AND cs.status = 'complete' AND cs.completed_at > $2
              AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.id = cs.subscription_id)
            ORDER BY cs.completed_at LIMIT $1`,
          [limit, since],
        );
        return rows.map((row) => row.id);
      },
      async get(scope, id, options = {}) {
        const query = getQuery(subscriptions.table, scope, id, options.forUpdate);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? subscriptionRows.read(rows[0]) : null;
      },
      async update(subscription) {
        await db.query(subscriptionRows.update, [subscription.id, ...fieldValues(subscriptionRows.updated, subscription)]);
      },
      async list(scope, filter) {
        const filters: ListFilter[] = [];
        if (filter.customerId) filters.push({ column: 'customer_id', value: filter.customerId });
        if (filter.customerIds) filters.push({ column: 'customer_id', op: 'any', value: [...filter.customerIds] });
        if (filter.status) filters.push({ column: 'status', value: filter.status });
        const query = scopedListQuery(subscriptions.table, scope, filter, filters);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(subscriptionRows.read);
      },
      async listRenewalDue(now, limit, testClockId) {
        const params: unknown[] = [now, limit];
        const { rows } = await db.query<Row>(
          `SELECT * FROM subscriptions WHERE status IN ('trialing', 'active', 'past_due') AND current_period_end <= $1 AND ${onClock(testClockId, params)}
            ORDER BY current_period_end, id LIMIT $2`,
          params,
        );
        return rows.map(subscriptionRows.read);
      },
      async nextRenewalOnClock(testClockId) {
        const { rows } = await db.query<{ at: Date | string | null }>(
          `SELECT min(current_period_end) AS at FROM subscriptions WHERE status IN ('trialing', 'active', 'past_due') AND test_clock_id = $1`,
          [testClockId],
        );
        return rows[0]?.at ? new Date(rows[0].at) : null;
      },
      async listNoticesDue(now, leads, limit, testClockId) {
        const params: unknown[] = [now, limit, new Date(now.getTime() + leads.trialWillEnd), new Date(now.getTime() + leads.upcoming)];
        const clock = onClock(testClockId, params);
        // Each branch as its partial index says (0051), so the wall clock's scan reads unsent notices only.
        const { rows } = await db.query<{ id: string }>(
          `SELECT id FROM subscriptions
            WHERE status = 'trialing' AND ${clock} AND trial_will_end_sent_for IS DISTINCT FROM trial_end
              AND trial_end > $1 AND trial_end <= $3
           UNION
           SELECT id FROM subscriptions
            WHERE status IN ('trialing', 'active', 'past_due') AND NOT cancel_at_period_end AND ${clock}
              AND upcoming_sent_for IS DISTINCT FROM current_period_end
              AND current_period_end > $1 AND current_period_end <= $4
           ORDER BY id LIMIT $2`,
          params,
        );
        return rows.map((row) => row.id);
      },
      async nextNoticeOnClock(testClockId, after, leads) {
        const { rows } = await db.query<{ at: Date | string | null }>(
          `SELECT min(at) AS at FROM (
             SELECT trial_end - $3::bigint * interval '1 millisecond' AS at FROM subscriptions
              WHERE status = 'trialing' AND test_clock_id = $1 AND trial_will_end_sent_for IS DISTINCT FROM trial_end AND trial_end > $2
             UNION ALL
             SELECT current_period_end - $4::bigint * interval '1 millisecond' FROM subscriptions
              WHERE status IN ('trialing', 'active', 'past_due') AND NOT cancel_at_period_end AND test_clock_id = $1
                AND upcoming_sent_for IS DISTINCT FROM current_period_end AND current_period_end > $2
           ) due`,
          [testClockId, after, leads.trialWillEnd, leads.upcoming],
        );
        return rows[0]?.at ? new Date(rows[0].at) : null;
      },
      async claimTrialWillEnd(id, trialEnd) {
        const { rowCount } = await db.query(
          'UPDATE subscriptions SET trial_will_end_sent_for = $2 WHERE id = $1 AND trial_will_end_sent_for IS DISTINCT FROM $2',
          [id, trialEnd],
        );
        return rowCount === 1;
      },
      async claimUpcoming(id, periodEnd) {
        const { rowCount } = await db.query('UPDATE subscriptions SET upcoming_sent_for = $2 WHERE id = $1 AND upcoming_sent_for IS DISTINCT FROM $2', [
          id,
          periodEnd,
        ]);
        return rowCount === 1;
      },
      async recurringTotals(scope, at) {
        // Each subscription's period amount, less the discount it has at `at` when that discount
        // recurs (repeating within its months, or forever): a `once` discount is no recurring revenue.
        const { rows } = await db.query<{ currency: string; interval: string; interval_count: number; amount: string | number; n: number }>(
          `WITH billed AS (
             SELECT s.currency, p.recurring_interval AS interval, p.recurring_interval_count AS interval_count,
                    (p.unit_amount::bigint * s.quantity)::numeric AS gross,
                    CASE WHEN s.discount IS NOT NULL
                           AND s.discount->'coupon'->>'duration' IN ('repeating', 'forever')
                           AND (s.discount->>'start')::bigint <= $3
                           AND (s.discount->>'end' IS NULL OR (s.discount->>'end')::bigint > $3)
                         THEN s.discount->'coupon' END AS coupon
               FROM subscriptions s JOIN prices p ON p.id = s.price_id
              WHERE s.account_id = $1 AND s.mode = $2 AND s.status IN ('active', 'past_due'))
           SELECT currency, interval, interval_count, count(*)::int AS n,
                  sum(CASE WHEN coupon->>'percentOff' IS NOT NULL THEN gross * (100 - (coupon->>'percentOff')::numeric) / 100
                           WHEN coupon->>'amountOff' IS NOT NULL THEN greatest(gross - (coupon->>'amountOff')::numeric, 0)
                           ELSE gross END)::float8 AS amount
             FROM billed
            GROUP BY currency, interval, interval_count
            ORDER BY currency, interval, interval_count`,
          [scope.accountId, scope.mode, Math.floor(at.getTime() / 1000)],
        );
        return rows.map((r) => ({
          currency: r.currency,
          interval: r.interval as RecurringInterval,
          intervalCount: Number(r.interval_count),
          amount: Number(r.amount),
          subscriptions: Number(r.n),
        }));
      },
      async churnCounts(scope, from, to) {
        const { rows } = await db.query<{ active: number; canceled: number }>(
          `SELECT count(*)::int AS active,
                  count(*) FILTER (WHERE status = 'canceled' AND ended_at > $3 AND ended_at <= $4)::int AS canceled
             FROM subscriptions
            WHERE account_id = $1 AND mode = $2 AND created_at <= $3 AND status <> 'incomplete'
              AND (ended_at IS NULL OR ended_at > $3) AND (trial_end IS NULL OR trial_end <= $3)`,
          [scope.accountId, scope.mode, from, to],
        );
        return { activeAtStart: Number(rows[0]?.active ?? 0), canceled: Number(rows[0]?.canceled ?? 0) };
      },
    },
    invoices: {
      async insert(invoice) {
        const { rowCount } = await db.query(
          `${invoiceRows.insert} ON CONFLICT (subscription_id, period_start) WHERE billing_reason IN ('subscription_create', 'subscription_cycle') DO NOTHING`,
          fieldValues(invoiceRows.all, invoice),
        );
        return rowCount === 1;
      },
      async get(scope, id, options = {}) {
        const query = getQuery(invoices.table, scope, id, options.forUpdate);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? invoiceRows.read(rows[0]) : null;
      },
      async getByHostedToken(token) {
        const { rows } = await db.query<Row>(`SELECT * FROM ${invoices.table} WHERE hosted_token = $1`, [token]);
        return rows[0] ? invoiceRows.read(rows[0]) : null;
      },
      async update(invoice) {
        await db.query(invoiceRows.update, [invoice.id, ...fieldValues(invoiceRows.updated, invoice)]);
      },
      async list(scope, filter) {
        const filters: ListFilter[] = [];
        if (filter.customerId) filters.push({ column: 'customer_id', value: filter.customerId });
        if (filter.subscriptionId) filters.push({ column: 'subscription_id', value: filter.subscriptionId });
        if (filter.status) filters.push({ column: 'status', value: filter.status });
        const query = scopedListQuery(invoices.table, scope, filter, filters);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(invoiceRows.read);
      },
      async listAttemptDue(now, limit, testClockId) {
        const params: unknown[] = [now, limit];
        const { rows } = await db.query<Row>(
          `SELECT * FROM invoices WHERE status = 'open' AND next_payment_attempt <= $1 AND ${onClock(testClockId, params)}
            ORDER BY next_payment_attempt, id LIMIT $2`,
          params,
        );
        return rows.map(invoiceRows.read);
      },
      async listUnsettled(limit, testClockId) {
        const params: unknown[] = [limit];
        const { rows } = await db.query<Row>(
          `SELECT i.* FROM invoices i JOIN payments p ON p.id = i.payment_id
            WHERE i.status = 'open' AND i.next_payment_attempt IS NULL AND p.status <> 'processing' AND i.${onClock(testClockId, params)}
            ORDER BY i.created_at, i.id LIMIT $1`,
          params,
        );
        return rows.map(invoiceRows.read);
      },
      async listFailureEmailsDue(limit, testClockId) {
        const params: unknown[] = [limit];
        const { rows } = await db.query<Row>(
          `SELECT * FROM invoices
            WHERE attempt_count > coalesce(failure_emailed_attempts, 0) AND status IN ('open', 'uncollectible') AND ${onClock(testClockId, params)}
              AND (status = 'uncollectible' OR next_payment_attempt IS NOT NULL)
            ORDER BY updated_at, id LIMIT $1`,
          params,
        );
        return rows.map(invoiceRows.read);
      },
      async claimFailureEmail(id) {
        const { rows } = await db.query<Row>(
          `UPDATE invoices SET failure_emailed_attempts = attempt_count
            WHERE id = $1 AND attempt_count > coalesce(failure_emailed_attempts, 0)
              AND (status = 'uncollectible' OR (status = 'open' AND next_payment_attempt IS NOT NULL))
            RETURNING *`,
          [id],
        );
        return rows[0] ? invoiceRows.read(rows[0]) : null;
      },
      async nextAttemptOnClock(testClockId) {
        const { rows } = await db.query<{ at: Date | string | null }>(
          `SELECT min(next_payment_attempt) AS at FROM invoices WHERE status = 'open' AND test_clock_id = $1`,
          [testClockId],
        );
        return rows[0]?.at ? new Date(rows[0].at) : null;
      },
    },
  };
}

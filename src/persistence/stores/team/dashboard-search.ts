import type { Payment } from '../../../domain/payments/entities';
import type { CheckoutSession } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { statusOfBadge, type PaymentStatusBadge } from '../../../domain/payments/status-badge';
import type { SqlExecutor } from '../../sql-client';
import { Query, scoped } from '../../list-query';
import { toPayment, toSession, type Row } from '../../rows';
import type { PaymentSearchClause } from '../../../domain/search/query-language';
import type { SearchKind, SearchTerms } from '../../../domain/search/search-terms';
import type { SearchHit } from '../../../domain/team/ports';

/** The dashboard's searches and charts over payments and checkout sessions. */
export function dashboardSearchRepositories(db: SqlExecutor): Pick<UnitOfWork, 'dashboardSearch'> {
  return {
    dashboardSearch: {
      async payments(scope, f): Promise<Payment[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.statuses?.length) filterByBadge(q, f.statuses);
        if (f.createdFrom) q.where(`created_at >= ${q.param(f.createdFrom)}`);
        if (f.createdBefore) q.where(`created_at < ${q.param(f.createdBefore)}`);
        if (f.amountMin !== undefined) q.where(`amount >= ${q.param(f.amountMin)}`);
        if (f.amountMax !== undefined) q.where(`amount <= ${q.param(f.amountMax)}`);
        if (f.email) q.where(`lower(customer_email) = ${q.param(f.email.toLowerCase())}`);
        if (f.last4) q.where(`payment_method->>'last4' = ${q.param(f.last4)}`);
        if (f.paymentMethodType) q.where(`payment_method->>'type' = ${q.param(f.paymentMethodType)}`);
        if (f.customerId) q.where(`customer_id = ${q.param(f.customerId)}`);
        if (f.id) {
          const id = q.param(f.id);
          q.where(`(id = ${id} OR checkout_session_id = ${id})`);
        }
        q.after('payments', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(`SELECT * FROM payments WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`, q.params);
        return rows.map(toPayment);
      },
      async checkoutSessions(scope, f): Promise<CheckoutSession[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.status) q.where(`status = ${q.param(f.status)}`);
        q.after('checkout_sessions', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM checkout_sessions WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`,
          q.params,
        );
        return rows.map(toSession);
      },
      async dailyPayments(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, p.currency,
                  count(*) FILTER (WHERE p.status = 'succeeded') AS succeeded,
                  count(*) FILTER (WHERE p.status = 'requires_capture') AS authorized,
                  count(*) FILTER (WHERE p.status = 'failed') AS failed,
                  count(*) FILTER (WHERE p.status = 'canceled') AS voided,
                  coalesce(sum(p.amount_captured) FILTER (WHERE p.status = 'succeeded'), 0) AS captured,
                  coalesce(sum(p.amount_refunded) FILTER (WHERE p.status = 'succeeded'), 0) AS refunded,
                  coalesce(sum(coalesce(d.lost, 0) + CASE WHEN p.ach_return IS NULL THEN 0 ELSE p.amount_captured END)
                           FILTER (WHERE p.status = 'succeeded'), 0) AS lost,
                  coalesce(sum(p.amount) FILTER (WHERE p.status = 'requires_capture'), 0) AS authorized_amount
           FROM payments p
           LEFT JOIN (SELECT payment_id, sum(amount) AS lost FROM disputes
                       WHERE account_id = $1 AND mode = $2 AND status IN ('lost', 'accepted', 'expired')
                       GROUP BY payment_id) d ON d.payment_id = p.id
           WHERE p.account_id = $1 AND p.mode = $2 AND p.created_at >= $3 AND p.created_at < $4
             AND p.status IN ('succeeded', 'requires_capture', 'failed', 'canceled')
           GROUP BY 1, 2 ORDER BY 1, 2`,
          [scope.accountId, scope.mode, from, before],
        );
        return rows.map((row) => ({
          day: row.day,
          currency: row.currency,
          succeeded: Number(row.succeeded),
          authorized: Number(row.authorized),
          failed: Number(row.failed),
          voided: Number(row.voided),
          captured: Number(row.captured),
          refunded: Number(row.refunded),
          lost: Number(row.lost),
          authorizedAmount: Number(row.authorized_amount),
        }));
      },
      async funnel(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT count(*) AS opened,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM payments p WHERE p.account_id = s.account_id AND p.mode = s.mode AND p.checkout_session_id = s.id)) AS attempted,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM payments p WHERE p.account_id = s.account_id AND p.mode = s.mode AND p.checkout_session_id = s.id
                                                   AND p.status IN ('succeeded', 'requires_capture'))) AS paid
           FROM checkout_sessions s WHERE s.account_id = $1 AND s.mode = $2 AND s.created_at >= $3 AND s.created_at < $4`,
          [scope.accountId, scope.mode, from, before],
        );
        const row = rows[0]!;
        return { opened: Number(row.opened), attempted: Number(row.attempted), paid: Number(row.paid) };
      },
      async paymentBreakdown(scope, from, before) {
        const params = [scope.accountId, scope.mode, from, before];
        const inPeriod = `account_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4`;
        // The success rate's terms (docs/dashboard.md, "Figures"): approved is captured or authorized;
        // finished adds the voided and the failed.
        const methods = await db.query<Row>(
          `SELECT coalesce(payment_method->>'type', 'unknown') AS method,
                  count(*) AS finished,
                  count(*) FILTER (WHERE status IN ('succeeded', 'requires_capture')) AS approved
             FROM payments WHERE ${inPeriod} AND status IN ('succeeded', 'requires_capture', 'canceled', 'failed')
            GROUP BY 1 ORDER BY 2 DESC, 1`,
          params,
        );
        const declines = await db.query<Row>(
          `SELECT coalesce(decline_code, failure_code, 'unknown') AS code, count(*) AS count
             FROM payments WHERE ${inPeriod} AND status = 'failed'
            GROUP BY 1 ORDER BY 2 DESC, 1`,
          params,
        );
        const threeDSecure = await db.query<Row>(
          `SELECT coalesce(three_d_secure->>'status', 'not_requested') AS status, count(*) AS count
             FROM payments WHERE ${inPeriod} AND status IN ('succeeded', 'requires_capture', 'canceled', 'failed')
            GROUP BY 1 ORDER BY 2 DESC, 1`,
          params,
        );
        return {
          methods: methods.rows.map((r) => ({ method: String(r.method), finished: Number(r.finished), approved: Number(r.approved) })),
          declines: declines.rows.map((r) => ({ code: String(r.code), count: Number(r.count) })),
          threeDSecure: threeDSecure.rows.map((r) => ({ status: String(r.status), count: Number(r.count) })),
        };
      },
      async exposureCounts(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT x.experiment_id, x.variant, count(*) AS exposed, count(x.converted_at) AS conversions
             FROM experiment_exposures x JOIN experiments e ON e.id = x.experiment_id
            WHERE e.account_id = $1 AND e.mode = $2 AND x.exposed_at >= $3 AND x.exposed_at < $4
            GROUP BY 1, 2`,
          [scope.accountId, scope.mode, from, before],
        );
        return rows.map((r) => ({
          experimentId: String(r.experiment_id),
          variant: String(r.variant),
          exposed: Number(r.exposed),
          conversions: Number(r.conversions),
        }));
      },
      async everywhere(scope, kinds, terms, limit): Promise<SearchHit[]> {
        const q = new Query();
        const account = q.param(scope.accountId);
        const mode = q.param(scope.mode);
        const n = q.param(limit);
        const parts: string[] = [];
        for (const kind of kinds) {
          const source = searchSources[kind];
          const arms = source.arms(terms, q, `account_id = ${account} AND mode = ${mode}`);
          if (arms.length === 0) continue;
          // One arm per kind of term, each served by its own index, newest first and cut at the limit.
          const union = arms
            .map(
              (where) =>
                `(SELECT ${source.columns} FROM ${source.table} WHERE account_id = ${account} AND mode = ${mode} AND ${where} ORDER BY created_at DESC, id DESC LIMIT ${n})`,
            )
            .join(' UNION ');
          parts.push(`(SELECT * FROM (${union}) AS ${kind}_hits ORDER BY created_at DESC, id DESC LIMIT ${n})`);
        }
        if (parts.length === 0) return [];
        const { rows } = await db.query<Row>(parts.join(' UNION ALL '), q.params);
        return rows.map((row) => ({
          kind: row.kind as SearchKind,
          id: row.id,
          createdAt: new Date(row.created_at),
          amount: row.amount === null ? null : Number(row.amount),
          currency: row.currency,
          status: row.status,
          email: row.email,
          detail: row.detail,
        }));
      },
      async paymentsByQuery(scope, clauses, page): Promise<Payment[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        for (const clause of clauses) paymentClause(q, clause, scopeSql);
        q.after('payments', 'created_at', page.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(`SELECT * FROM payments WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(page.limit)}`, q.params);
        return rows.map(toPayment);
      },
    },
  };
}

const refundBadges: readonly PaymentStatusBadge[] = ['succeeded', 'partially_refunded', 'refunded'];

/** `refundBadge` (src/domain/payments/status-badge.ts) in SQL, for a succeeded payment's row. */
export const refundBadgeSql = `CASE WHEN amount_refunded <= 0 THEN 'succeeded' WHEN amount_refunded < amount_captured THEN 'partially_refunded' ELSE 'refunded' END`;

/**
 * Payments whose badge is one of `badges`: by lifecycle status (so the status indexes serve it),
 * and, for succeeded payments when only some of their badges are asked for, by what was refunded.
 */
function filterByBadge(q: Query, badges: readonly PaymentStatusBadge[]) {
  q.where(`status = ANY(${q.param([...new Set(badges.map(statusOfBadge))])}::text[])`);
  const ofSucceeded = refundBadges.filter((badge) => badges.includes(badge));
  if (ofSucceeded.length > 0 && ofSucceeded.length < refundBadges.length) {
    q.where(`(status <> 'succeeded' OR ${refundBadgeSql} = ANY(${q.param(ofSucceeded)}::text[]))`);
  }
}

/** Above every character in byte order: `x ~<~ p || TOP` holds for every `x` starting with `p`. */
const TOP = '\u{10FFFF}';

/**
 * Emails (lower case in `column`) that start or end with `part`: two index ranges (migration 0025
 * indexes the address and its reverse), so the address's start and its domain are both found.
 */
function emailPartArms(q: Query, column: string, part: string): string[] {
  const reversed = [...part].reverse().join('');
  return [
    `(lower(${column}) ~>=~ ${q.param(part)} AND lower(${column}) ~<~ ${q.param(part + TOP)})`,
    `(reverse(lower(${column})) ~>=~ ${q.param(reversed)} AND reverse(lower(${column})) ~<~ ${q.param(reversed + TOP)})`,
  ];
}

/** Ids are `[A-Za-z0-9_]`: every id starting with `prefix` sorts from `prefix` up to `prefix~` (byte order). */
function idPrefix(q: Query, column: string, prefix: string): string {
  return `(${column} ~>=~ ${q.param(prefix)} AND ${column} ~<~ ${q.param(`${prefix}~`)})`;
}

/** A record of a payment (a refund, a dispute): found by its own id, its payment's id, or its amount. */
function ofPayment(ownPrefix: string) {
  return (terms: SearchTerms, q: Query): string[] => {
    const arms: string[] = [];
    if (terms.idPrefix?.startsWith(ownPrefix)) arms.push(idPrefix(q, 'id', terms.idPrefix));
    if (terms.idPrefix?.startsWith('pay_')) arms.push(idPrefix(q, 'payment_id', terms.idPrefix));
    arms.push(...amountArms(q, terms, 'amount'));
    return arms;
  };
}

/** A jsonpath matching an object any of whose values is `value`. */
const anyValueIs = (value: string) => `$.* ? (@ == ${JSON.stringify(value)})`;

function amountArms(q: Query, terms: SearchTerms, column: string): string[] {
  return terms.amounts.map((m) => `(${column} = ${q.param(m.amount)} AND currency = ANY(${q.param(m.currencies)}::text[]))`);
}

/** Checkout sessions of the scope whose metadata has the value or whose client_reference_id is it. */
function sessionsByReference(q: Query, reference: string, scopeSql: string): string[] {
  return [`client_reference_id = ${q.param(reference)}`, `metadata @? ${q.param(anyValueIs(reference))}::jsonpath`].map(
    (where) => `(SELECT id FROM checkout_sessions WHERE ${scopeSql} AND ${where})`,
  );
}

/**
 * The search box's sources, one per kind (src/domain/search/search-terms.ts `searchKinds`): the
 * table, the columns of a hit, and one condition per term that applies to the kind. Each condition
 * is served by an index of migration 0025.
 */
const searchSources: Record<SearchKind, { table: string; columns: string; arms(terms: SearchTerms, q: Query, scopeSql: string): string[] }> = {
  payment: {
    table: 'payments',
    columns: `'payment' AS kind, id, created_at, amount, currency, status, customer_email AS email,
              CASE WHEN payment_method->>'last4' IS NULL THEN NULL ELSE coalesce(payment_method->>'brand', 'card') || ' ' || (payment_method->>'last4') END AS detail`,
    arms(terms, q, scopeSql) {
      const arms: string[] = [];
      if (terms.idPrefix?.startsWith('pay_')) arms.push(idPrefix(q, 'id', terms.idPrefix));
      if (terms.idPrefix?.startsWith('cs_')) arms.push(idPrefix(q, 'checkout_session_id', terms.idPrefix));
      if (terms.emailPart) arms.push(...emailPartArms(q, 'customer_email', terms.emailPart));
      if (terms.last4) arms.push(`payment_method->>'last4' = ${q.param(terms.last4)}`);
      arms.push(...amountArms(q, terms, 'amount'));
      if (terms.reference) {
        for (const sessions of sessionsByReference(q, terms.reference, scopeSql)) arms.push(`checkout_session_id IN ${sessions}`);
      }
      return arms;
    },
  },
  checkout_session: {
    table: 'checkout_sessions',
    columns: `'checkout_session' AS kind, id, created_at, amount_total AS amount, currency, status, customer_email AS email, client_reference_id AS detail`,
    arms(terms, q) {
      const arms: string[] = [];
      if (terms.idPrefix?.startsWith('cs_')) arms.push(idPrefix(q, 'id', terms.idPrefix));
      if (terms.emailPart) arms.push(...emailPartArms(q, 'customer_email', terms.emailPart));
      arms.push(...amountArms(q, terms, 'amount_total'));
      if (terms.reference) {
        arms.push(`client_reference_id = ${q.param(terms.reference)}`);
        arms.push(`metadata @? ${q.param(anyValueIs(terms.reference))}::jsonpath`);
      }
      return arms;
    },
  },
  refund: {
    table: 'refunds',
    columns: `'refund' AS kind, id, created_at, amount, currency, status, NULL::text AS email, payment_id AS detail`,
    arms: ofPayment('re_'),
  },
  payment_link: {
    table: 'payment_links',
    columns: `'payment_link' AS kind, id, created_at, NULL::bigint AS amount, currency, CASE WHEN active THEN 'active' ELSE 'inactive' END AS status, NULL::text AS email, slug AS detail`,
    arms(terms, q) {
      const arms: string[] = [];
      if (terms.idPrefix?.startsWith('plink_')) arms.push(idPrefix(q, 'id', terms.idPrefix));
      if (terms.reference && /^[a-z0-9]{1,40}$/.test(terms.reference)) arms.push(`slug = ${q.param(terms.reference)}`);
      return arms;
    },
  },
  customer: {
    table: 'customers',
    columns: `'customer' AS kind, id, created_at, NULL::bigint AS amount, NULL::text AS currency, NULL::text AS status, email, name AS detail`,
    arms(terms, q) {
      const arms: string[] = [];
      if (terms.idPrefix?.startsWith('cus_')) arms.push(idPrefix(q, 'id', terms.idPrefix));
      if (terms.emailPart) arms.push(...emailPartArms(q, 'email', terms.emailPart));
      return arms;
    },
  },
  dispute: {
    table: 'disputes',
    columns: `'dispute' AS kind, id, created_at, amount, currency, status, NULL::text AS email, payment_id AS detail`,
    arms: ofPayment('dp_'),
  },
};

/** One clause of the API's query language as a condition on `payments` (columns of our choosing). */
function paymentClause(q: Query, clause: PaymentSearchClause, scopeSql: string) {
  const sessions = (where: string) => q.where(`checkout_session_id IN (SELECT id FROM checkout_sessions WHERE ${scopeSql} AND ${where})`);
  switch (clause.field) {
    case 'id':
      q.where(clause.op === 'exact' ? `id = ${q.param(clause.value)}` : idPrefix(q, 'id', clause.value));
      return;
    case 'email':
      q.where(
        clause.op === 'exact'
          ? `lower(customer_email) = ${q.param(clause.value.toLowerCase())}`
          : `(${emailPartArms(q, 'customer_email', clause.value.toLowerCase()).join(' OR ')})`,
      );
      return;
    case 'last4':
      q.where(`payment_method->>'last4' = ${q.param(clause.value)}`);
      return;
    case 'status':
      filterByBadge(q, [clause.value]);
      return;
    case 'currency':
      q.where(`currency = ${q.param(clause.value)}`);
      return;
    case 'payment_method_type':
      q.where(`payment_method->>'type' = ${q.param(clause.value)}`);
      return;
    case 'checkout_session':
      q.where(`checkout_session_id = ${q.param(clause.value)}`);
      return;
    case 'client_reference_id':
      sessions(`client_reference_id = ${q.param(clause.value)}`);
      return;
    case 'metadata':
      sessions(`metadata @> ${q.param(JSON.stringify({ [clause.key]: clause.value }))}::jsonb`);
      return;
    case 'amount':
      q.where(`amount ${clause.op} ${q.param(clause.value)}`);
      return;
    case 'created':
      // Unix seconds: `created:t` is the whole second t, `created<t` before it, `created>t` after it.
      if (clause.op === '=' || clause.op === '>' || clause.op === '<=') {
        const next = new Date(clause.value.getTime() + 1000);
        if (clause.op === '=') q.where(`created_at >= ${q.param(clause.value)} AND created_at < ${q.param(next)}`);
        else q.where(`created_at ${clause.op === '>' ? '>=' : '<'} ${q.param(next)}`);
      } else {
        q.where(`created_at ${clause.op} ${q.param(clause.value)}`);
      }
      return;
  }
}

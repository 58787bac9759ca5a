import { coupons, promotionCodes } from '../../../domain/pricing/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders, type Row } from '../../rows';

/** A coupon's row, read as its definition says (resource-rows.ts), and the columns it is made with. */
const toCoupon = rowReader(coupons);
const couponFields = columnsOf(coupons);
const insertCoupon = `INSERT INTO ${coupons.table} (${couponFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, couponFields.length)})`;

/** A promotion code's row and the columns it is made with, as its definition says. */
const toPromotionCode = rowReader(promotionCodes);
const promotionCodeFields = columnsOf(promotionCodes);

/** Sessions complete with each of `ids` in `column`, and subscriptions it was applied to. */
async function completedRedemptions(db: SqlExecutor, column: 'coupon_id' | 'promotion_code_id', ids: readonly string[]) {
  const counts = new Map<string, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const { rows } = await db.query<Row>(
    `SELECT r.${column} AS id, count(*) AS n FROM discount_redemptions r LEFT JOIN checkout_sessions s ON s.id = r.checkout_session_id
      WHERE r.${column} = ANY($1::text[]) AND (r.subscription_id IS NOT NULL OR s.status = 'complete') GROUP BY r.${column}`,
    [ids],
  );
  for (const row of rows) counts.set(row.id, Number(row.n));
  return counts;
}

/** Coupons, promotion codes and their redemptions. */
export function discountRepositories(db: SqlExecutor): Pick<UnitOfWork, 'coupons' | 'promotionCodes' | 'discountRedemptions'> {
  return {
    coupons: {
      async insert(c) {
        await db.query(insertCoupon, fieldValues(couponFields, c));
      },
      async get(scope, id, options = {}) {
        const query = scopedGetQuery('coupons', scope, id);
        const { rows } = await db.query<Row>(query.text + (options.forUpdate ? ' FOR UPDATE' : ''), query.params);
        return rows[0] ? toCoupon(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('coupons', scope, page);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toCoupon);
      },
      timesRedeemed: (ids) => completedRedemptions(db, 'coupon_id', ids),
    },
    promotionCodes: {
      async insert(p) {
        // A code already active under the same spelling makes this a no-op, not an error, so the
        // transaction stays usable.
        const { rowCount } = await db.query(
          `INSERT INTO ${promotionCodes.table} (${promotionCodeFields.map(([column]) => column).join(', ')})
           VALUES (${placeholders(1, promotionCodeFields.length)})
           ON CONFLICT (account_id, mode, lower(code)) WHERE active DO NOTHING`,
          fieldValues(promotionCodeFields, p),
        );
        return rowCount === 1;
      },
      async get(scope, id, options = {}) {
        const query = scopedGetQuery('promotion_codes', scope, id);
        const { rows } = await db.query<Row>(query.text + (options.forUpdate ? ' FOR UPDATE' : ''), query.params);
        return rows[0] ? toPromotionCode(rows[0]) : null;
      },
      async findActiveByCode(scope, code) {
        const { rows } = await db.query<Row>('SELECT * FROM promotion_codes WHERE account_id = $1 AND mode = $2 AND lower(code) = lower($3) AND active', [
          scope.accountId,
          scope.mode,
          code,
        ]);
        return rows[0] ? toPromotionCode(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('promotion_codes', scope, page, page.code ? [{ column: 'lower(code)', value: page.code.toLowerCase() }] : []);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toPromotionCode);
      },
      timesRedeemed: (ids) => completedRedemptions(db, 'promotion_code_id', ids),
    },
    discountRedemptions: {
      async countHeld(filter, exceptRedeemerId) {
        const [column, value] = 'couponId' in filter ? ['coupon_id', filter.couponId] : ['promotion_code_id', filter.promotionCodeId];
        // Held: a subscription's, or a session's that is complete or has a payment under way (not failed).
        const { rows } = await db.query<Row>(
          `SELECT count(*) AS n FROM discount_redemptions r
            WHERE r.${column} = $1 AND coalesce(r.checkout_session_id, r.subscription_id) <> $2
              AND (r.subscription_id IS NOT NULL
                OR EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.id = r.checkout_session_id AND s.status = 'complete')
                OR EXISTS (SELECT 1 FROM payments p WHERE p.checkout_session_id = r.checkout_session_id AND p.status <> 'failed'))`,
          [value, exceptRedeemerId],
        );
        return Number(rows[0]!.n);
      },
      async record(r) {
        await db.query(
          `INSERT INTO discount_redemptions (checkout_session_id, account_id, mode, coupon_id, promotion_code_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (checkout_session_id) WHERE checkout_session_id IS NOT NULL
           DO UPDATE SET coupon_id = excluded.coupon_id, promotion_code_id = excluded.promotion_code_id`,
          [r.checkoutSessionId, r.accountId, r.mode, r.couponId, r.promotionCodeId, r.at],
        );
      },
      async recordForSubscription(r) {
        await db.query(
          `INSERT INTO discount_redemptions (subscription_id, account_id, mode, coupon_id, promotion_code_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [r.subscriptionId, r.accountId, r.mode, r.couponId, r.promotionCodeId, r.at],
        );
      },
      async forget(checkoutSessionId) {
        await db.query('DELETE FROM discount_redemptions WHERE checkout_session_id = $1', [checkoutSessionId]);
      },
      async emailHasPaid(scope, email) {
        const { rows } = await db.query<Row>(
          `SELECT 1 FROM payments WHERE account_id = $1 AND mode = $2 AND lower(customer_email) = lower($3)
              AND status IN ('succeeded', 'requires_capture') LIMIT 1`,
          [scope.accountId, scope.mode, email],
        );
        return rows.length > 0;
      },
    },
  };
}

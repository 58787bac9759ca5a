import type { Refund } from '../domain/payments/entities';
import type { UnitOfWork } from '../domain/deps';
import { scopedGetQuery, scopedListQuery } from './list-query';
import type { SqlExecutor } from './sql-client';
import type { Product, Price } from '../domain/sessions/entities';

type Row = Record<string, any>;

export function toRefund(row: Row): Refund {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    paymentId: row.payment_id,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    createdBy: row.created_by,
    failureReason: row.failure_reason,
    processorRefundId: row.processor_refund_id,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toProduct(row: Row): Product {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    name: row.name,
    description: row.description,
    active: row.active,
    defaultPriceId: row.default_price_id,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function toPrice(row: Row): Price {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    productId: row.product_id,
    currency: row.currency,
    unitAmount: Number(row.unit_amount),
    active: row.active,
    createdAt: new Date(row.created_at),
  };
}

/** Refunds, products and prices over one SQL transaction; part of the unit of work. */
export function lifecycleUnitOfWork(db: SqlExecutor): Pick<UnitOfWork, 'refunds' | 'products' | 'prices'> {
  return {
    refunds: {
      async insert(r) {
        await db.query(
          `INSERT INTO refunds (id, account_id, mode, payment_id, amount, currency, reason, status, created_by, failure_reason, processor_refund_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [r.id, r.accountId, r.mode, r.paymentId, r.amount, r.currency, r.reason, r.status, r.createdBy, r.failureReason,
            r.processorRefundId, r.createdAt, r.updatedAt],
        );
      },
      async get(scope, id) {
        const params: unknown[] = [id];
        let sql = 'SELECT * FROM refunds WHERE id = $1';
        if (scope) {
          params.push(scope.accountId, scope.mode);
          sql += ' AND account_id = $2 AND mode = $3';
        }
        const { rows } = await db.query<Row>(sql, params);
        return rows[0] ? toRefund(rows[0]) : null;
      },
      async update(r, expectedStatus) {
        const { rowCount } = await db.query(
          `UPDATE refunds SET status = $3, failure_reason = $4, processor_refund_id = $5, updated_at = $6
            WHERE id = $1 AND status = $2`,
          [r.id, expectedStatus, r.status, r.failureReason, r.processorRefundId, r.updatedAt],
        );
        return rowCount === 1;
      },
      async pendingAmount(paymentId) {
        const { rows } = await db.query<Row>(
          `SELECT COALESCE(sum(amount), 0) AS total FROM refunds WHERE payment_id = $1 AND status = 'pending'`,
          [paymentId],
        );
        return Number(rows[0]!.total);
      },
      async list(scope, filter) {
        const query = scopedListQuery('refunds', scope, filter, filter.paymentId ? [{ column: 'payment_id', value: filter.paymentId }] : []);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toRefund);
      },
    },
    products: {
      async insert(p) {
        await db.query(
          `INSERT INTO products (id, account_id, mode, name, description, active, default_price_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [p.id, p.accountId, p.mode, p.name, p.description, p.active, p.defaultPriceId, p.createdAt, p.updatedAt],
        );
      },
      async get(scope, id) {
        const query = scopedGetQuery('products', scope, id);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? toProduct(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('products', scope, page);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toProduct);
      },
    },
    prices: {
      async insert(p) {
        await db.query(
          `INSERT INTO prices (id, account_id, mode, product_id, currency, unit_amount, active, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [p.id, p.accountId, p.mode, p.productId, p.currency, p.unitAmount, p.active, p.createdAt],
        );
      },
      async get(scope, id) {
        const query = scopedGetQuery('prices', scope, id);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? toPrice(rows[0]) : null;
      },
    },
  };
}

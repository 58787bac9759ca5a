import type { Product, Price } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import type { Row } from '../../rows';

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

/** Products and their prices. */
export function productRepositories(db: SqlExecutor): Pick<UnitOfWork, 'products' | 'prices'> {
  return {
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

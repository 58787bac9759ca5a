import { products, type Price } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders, type Row } from '../../rows';

/** A product's row and the columns it is made with, as its definition says (resource-rows.ts). */
const toProduct = rowReader(products);
const productFields = columnsOf(products);
const insertProduct = `INSERT INTO ${products.table} (${productFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, productFields.length)})`;

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
        await db.query(insertProduct, fieldValues(productFields, p));
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

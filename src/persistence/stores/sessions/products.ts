import { prices, products } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders, type Row } from '../../rows';

/** A product's row and the columns it is made with, as its definition says (resource-rows.ts). */
const toProduct = rowReader(products);
const productFields = columnsOf(products);
const insertProduct = `INSERT INTO ${products.table} (${productFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, productFields.length)})`;

/** A price's row and the columns it is made with, as its definition says. */
const toPrice = rowReader(prices);
const priceFields = columnsOf(prices);
const insertPrice = `INSERT INTO ${prices.table} (${priceFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, priceFields.length)})`;

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
        await db.query(insertPrice, fieldValues(priceFields, p));
      },
      async get(scope, id) {
        const query = scopedGetQuery('prices', scope, id);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? toPrice(rows[0]) : null;
      },
    },
  };
}

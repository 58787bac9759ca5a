import { prices, products } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery, type ListFilter } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { assignments, fieldValues, placeholders, type Row } from '../../rows';

/** A product's row and the columns it is made with, as its definition says (resource-rows.ts). */
const toProduct = rowReader(products);
const productFields = columnsOf(products);
const productUpdates = columnsOf(products, 'updated');
const updateProduct = `UPDATE ${products.table} SET ${assignments(
  productUpdates.map(([column]) => column),
  2,
)} WHERE id = $1`;
const insertProduct = `INSERT INTO ${products.table} (${productFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, productFields.length)})`;

/** A price's row and the columns it is made with, as its definition says. */
const toPrice = rowReader(prices);
const priceFields = columnsOf(prices);
const priceUpdates = columnsOf(prices, 'updated');
const updatePrice = `UPDATE ${prices.table} SET ${assignments(
  priceUpdates.map(([column]) => column),
  2,
)} WHERE id = $1`;
const insertPrice = `INSERT INTO ${prices.table} (${priceFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, priceFields.length)})`;

/** Products and their prices. */
export function productRepositories(db: SqlExecutor): Pick<UnitOfWork, 'products' | 'prices'> {
  return {
    products: {
      async insert(p) {
        await db.query(insertProduct, fieldValues(productFields, p));
      },
      async get(scope, id, options = {}) {
        const query = scopedGetQuery('products', scope, id);
        const { rows } = await db.query<Row>(query.text + (options.forUpdate ? ' FOR UPDATE' : ''), query.params);
        return rows[0] ? toProduct(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('products', scope, page);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toProduct);
      },
      async update(p) {
        await db.query(updateProduct, [p.id, ...fieldValues(productUpdates, p)]);
      },
    },
    prices: {
      async insert(p) {
        await db.query(insertPrice, fieldValues(priceFields, p));
      },
      async get(scope, id, options = {}) {
        const query = scopedGetQuery('prices', scope, id);
        const { rows } = await db.query<Row>(query.text + (options.forUpdate ? ' FOR UPDATE' : ''), query.params);
        return rows[0] ? toPrice(rows[0]) : null;
      },
      async getMany(scope, ids) {
        if (ids.length === 0) return new Map();
        const { rows } = await db.query<Row>('SELECT * FROM prices WHERE id = ANY($1::text[]) AND account_id = $2 AND mode = $3', [
          [...ids],
          scope.accountId,
          scope.mode,
        ]);
        return new Map(rows.map((row) => toPrice(row)).map((price) => [price.id, price]));
      },
      async list(scope, page) {
        const filters: ListFilter[] = [];
        if (page.productId !== undefined) filters.push({ column: 'product_id', value: page.productId });
        if (page.active !== undefined) filters.push({ column: 'active', value: page.active });
        if (page.type !== undefined) filters.push({ column: '(recurring_interval IS NOT NULL)', value: page.type === 'recurring' });
        const query = scopedListQuery('prices', scope, page, filters);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toPrice);
      },
      async update(p) {
        await db.query(updatePrice, [p.id, ...fieldValues(priceUpdates, p)]);
      },
    },
  };
}

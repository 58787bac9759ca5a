import { taxRates } from '../../../domain/pricing/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders, type Row } from '../../rows';

/** A tax rate's row and the columns it is made with, as its definition says (resource-rows.ts). */
const toTaxRate = rowReader(taxRates);
const taxRateFields = columnsOf(taxRates);
const insertTaxRate = `INSERT INTO ${taxRates.table} (${taxRateFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, taxRateFields.length)})`;

/** Tax rates. */
export function taxRateRepositories(db: SqlExecutor): Pick<UnitOfWork, 'taxRates'> {
  return {
    taxRates: {
      async insert(t) {
        await db.query(insertTaxRate, fieldValues(taxRateFields, t));
      },
      async get(scope, id) {
        const query = scopedGetQuery('tax_rates', scope, id);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows[0] ? toTaxRate(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('tax_rates', scope, page);
        const { rows } = await db.query<Row>(query.text, query.params);
        return rows.map(toTaxRate);
      },
    },
  };
}

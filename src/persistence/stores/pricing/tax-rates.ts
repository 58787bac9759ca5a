import type { TaxRate } from '../../../domain/pricing/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { json, type Row } from '../../rows';

function toTaxRate(row: Row): TaxRate {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    displayName: row.display_name,
    description: row.description,
    percentage: Number(row.percentage),
    inclusive: row.inclusive,
    country: row.country,
    state: row.state,
    jurisdiction: row.jurisdiction,
    active: row.active,
    metadata: row.metadata,
    createdAt: new Date(row.created_at),
  };
}

/** Tax rates. */
export function taxRateRepositories(db: SqlExecutor): Pick<UnitOfWork, 'taxRates'> {
  return {
    taxRates: {
      async insert(t) {
        await db.query(
          `INSERT INTO tax_rates (id, account_id, mode, display_name, description, percentage, inclusive, country, state, jurisdiction, active, metadata, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            t.id,
            t.accountId,
            t.mode,
            t.displayName,
            t.description,
            t.percentage,
            t.inclusive,
            t.country,
            t.state,
            t.jurisdiction,
            t.active,
            json(t.metadata),
            t.createdAt,
          ],
        );
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

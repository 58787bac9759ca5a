import { billingPortalSessions } from '../../../domain/billing/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders, type Row } from '../../rows';
import type { SqlExecutor } from '../../sql-client';

const all = columnsOf(billingPortalSessions);
const read = rowReader(billingPortalSessions);
const insert = `INSERT INTO ${billingPortalSessions.table} (${all.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, all.length)})`;

/** Customer portal sessions (docs/billing.md). */
export function billingPortalRepositories(db: SqlExecutor): Pick<UnitOfWork, 'billingPortalSessions'> {
  return {
    billingPortalSessions: {
      async insert(session) {
        await db.query(insert, fieldValues(all, session));
      },
      async getByToken(token) {
        const { rows } = await db.query<Row>(`SELECT * FROM ${billingPortalSessions.table} WHERE token = $1`, [token]);
        return rows[0] ? read(rows[0]) : null;
      },
    },
  };
}

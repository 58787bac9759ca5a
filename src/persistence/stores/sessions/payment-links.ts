import { paymentLinks } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import { columnsOf, rowReader } from '../../resource-rows';
import { fieldValues, placeholders } from '../../rows';

/** A payment link's row and the columns it is made with, as its definition says (resource-rows.ts). */
const toPaymentLink = rowReader(paymentLinks);
const paymentLinkFields = columnsOf(paymentLinks);
const insertPaymentLink = `INSERT INTO ${paymentLinks.table} (${paymentLinkFields.map(([column]) => column).join(', ')})
  VALUES (${placeholders(1, paymentLinkFields.length)})`;

/** Payment links, found by slug or id. */
export function paymentLinkRepositories(db: SqlExecutor): Pick<UnitOfWork, 'paymentLinks'> {
  return {
    paymentLinks: {
      async insert(l) {
        await db.query(insertPaymentLink, fieldValues(paymentLinkFields, l));
      },
      async getBySlug(slug) {
        const { rows } = await db.query('SELECT * FROM payment_links WHERE slug = $1', [slug]);
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async get(scope, id) {
        const query = scopedGetQuery('payment_links', scope, id);
        const { rows } = await db.query(query.text, query.params);
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async setActive(scope, id, active, at) {
        const { rows } = await db.query(`UPDATE payment_links SET active = $4, updated_at = $5 WHERE id = $1 AND account_id = $2 AND mode = $3 RETURNING *`, [
          id,
          scope.accountId,
          scope.mode,
          active,
          at,
        ]);
        return rows[0] ? toPaymentLink(rows[0]) : null;
      },
      async list(scope, page) {
        const query = scopedListQuery('payment_links', scope, page);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toPaymentLink);
      },
    },
  };
}

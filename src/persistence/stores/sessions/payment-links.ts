import type { PaymentLink } from '../../../domain/sessions/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import { json, type Row } from '../../rows';

function toPaymentLink(row: Row): PaymentLink {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    slug: row.slug,
    currency: row.currency,
    lineItems: row.line_items,
    active: row.active,
    createdAt: new Date(row.created_at),
    allowPromotionCodes: row.allow_promotion_codes ?? false,
    billingAddressCollection: row.billing_address_collection ?? 'auto',
    shippingAddressCollection: row.shipping_allowed_countries ? { allowedCountries: row.shipping_allowed_countries } : null,
    shippingOptions: row.shipping_options ?? [],
    customFields: row.custom_fields ?? [],
  };
}

/** Payment links, found by slug or id. */
export function paymentLinkRepositories(db: SqlExecutor): Pick<UnitOfWork, 'paymentLinks'> {
  return {
    paymentLinks: {
      async insert(l) {
        await db.query(
          `INSERT INTO payment_links (id, account_id, mode, slug, currency, line_items, active, created_at,
             allow_promotion_codes, billing_address_collection, shipping_allowed_countries, shipping_options, custom_fields)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            l.id,
            l.accountId,
            l.mode,
            l.slug,
            l.currency,
            json(l.lineItems),
            l.active,
            l.createdAt,
            l.allowPromotionCodes,
            l.billingAddressCollection,
            l.shippingAddressCollection ? json(l.shippingAddressCollection.allowedCountries) : null,
            json(l.shippingOptions),
            json(l.customFields),
          ],
        );
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

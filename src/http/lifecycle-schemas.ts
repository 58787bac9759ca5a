import { z } from 'zod';
import { eventTypes } from '../domain/shared/events';
import type { NewPaymentLinkItem } from '../domain/sessions/use-cases/create-payment-link';
import type { NewProduct } from '../domain/sessions/use-cases/create-product';
import { listQuery } from './schemas';

const objectId = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id');
const minorUnits = z.number().int();
const currency = z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code');
const unixSeconds = z.coerce.number().int('must be a Unix timestamp in seconds').min(0);

/** Body of `POST /v1/payments/:id/capture`; no amount captures everything authorized. */
export const captureBody = z.strictObject({ amount: minorUnits.optional() });

/** Body of `POST /v1/refunds`. */
export const createRefundBody = z.strictObject({
  payment: objectId,
  amount: minorUnits.min(1, 'must be at least 1').optional(),
  reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']).optional(),
});

export const listRefundsQuery = z.strictObject({ ...listQuery, payment: objectId.optional() });

/**
 * Query of `GET /v1/events`. Time bounds are written the Stripe way, `created[gte]=…&created[lte]=…`
 * (Unix seconds, inclusive): the query-string parser keeps the brackets in the key.
 */
export const listEventsQuery = z.strictObject({
  ...listQuery,
  type: z.enum(eventTypes).optional(),
  'created[gte]': unixSeconds.optional(),
  'created[lte]': unixSeconds.optional(),
});

/** Query of lists with pagination only. */
export const pageQuery = z.strictObject({ ...listQuery });

const customerFields = {
  email: z.string().max(254).nullable().optional().meta({ description: 'The shopper\'s email; null clears it.' }),
  name: z.string().max(256).nullable().optional(),
  metadata: z.record(z.string(), z.string()).optional().meta({ description: 'Merged into what is there; an empty value removes its key.' }),
};

/** Body of `POST /v1/customers`. */
export const createCustomerBody = z.strictObject(customerFields);

/** Body of `POST /v1/customers/:id`: only the fields given change. */
export const updateCustomerBody = z.strictObject(customerFields);

/** Query of `GET /v1/customers`. */
export const listCustomersQuery = z.strictObject({
  ...listQuery,
  email: z.string().max(254).optional().meta({ description: 'Only customers with this email (the whole address, any case).' }),
});

/** Body of `POST /v1/products`. */
export const createProductBody = z.strictObject({
  name: z.string().max(250),
  description: z.string().max(5000).optional(),
  active: z.boolean().optional(),
  default_price_data: z
    .strictObject({ currency, unit_amount: minorUnits.min(0, 'must not be negative') })
    .optional(),
});

/** Body of `POST /v1/payment_links`: each item names a price, or gives a name and an amount. */
export const createPaymentLinkBody = z.strictObject({
  currency: currency.optional(),
  line_items: z
    .array(
      z.union([
        z.strictObject({ price: objectId, quantity: z.number().int() }),
        z.strictObject({ name: z.string(), unit_amount: minorUnits, quantity: z.number().int() }),
      ]),
    )
    .min(1, 'must have at least one item')
    .max(100),
});

/** Body of `POST /v1/payment_links/:id`. */
export const updatePaymentLinkBody = z.strictObject({ active: z.boolean().optional() });

/** A create-product body in the use case's terms (the merchant API and the dashboard take the same). */
export function productInputOf(body: z.output<typeof createProductBody>): NewProduct {
  return {
    name: body.name,
    description: body.description,
    active: body.active,
    defaultPrice: body.default_price_data && { currency: body.default_price_data.currency, unitAmount: body.default_price_data.unit_amount },
  };
}

/** A payment link's items in the use case's terms. */
export function paymentLinkItemsOf(items: z.output<typeof createPaymentLinkBody>['line_items']): NewPaymentLinkItem[] {
  return items.map((item) =>
    'price' in item ? { priceId: item.price, quantity: item.quantity } : { name: item.name, unitAmount: item.unit_amount, quantity: item.quantity },
  );
}

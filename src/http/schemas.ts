import { z } from 'zod';
import { paymentMethodTypes } from '../domain/payments/entities';

/** Body of `POST /v1/checkout/sessions`. Unknown fields are refused by name. */
export const createCheckoutSessionBody = z.strictObject({
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code'),
  line_items: z.array(
    z.strictObject({
      name: z.string(),
      unit_amount: z.number().int(),
      quantity: z.number().int(),
    }),
  ),
  success_url: z.string().max(2048).optional(),
  cancel_url: z.string().max(2048).optional(),
  capture_method: z.enum(['automatic', 'manual']).optional(),
  payment_method_types: z.array(z.enum(paymentMethodTypes)).optional(),
  customer_email: z.email().max(254).optional(),
  // `auto` or a supported locale: checked (with the list of what is supported) in the domain.
  locale: z.string().max(35).describe("'auto' (default) or a supported locale such as de, pt-BR, zh-Hant").optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  client_reference_id: z.string().min(1).max(200).optional(),
  expires_at: z.number().int('must be a Unix timestamp in seconds').optional(),
});

/** An object id in a path: letters, digits and underscores, bounded. */
export const idParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });

/** Body of the checkout page's card tokenization (test processor only). */
export const tokenizeCardBody = z.strictObject({
  number: z.string().max(32),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(0).max(9999),
  cvc: z.string().max(4),
  postal_code: z.string().max(16).nullable().optional(),
});

/** Body of the checkout page's payment. */
export const payBody = z.strictObject({
  payment_method_type: z.enum(paymentMethodTypes),
  nonce: z.string().min(1).max(4096),
  email: z.string().max(254),
  device_data: z.string().max(8192).nullable().optional(),
});

/** An object id (`cs_…`, `we_…`) in a path or cursor. */
export const objectId = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an object id');

/** Query of a list endpoint: cursor pagination (design.md §7). */
export const listQuery = {
  limit: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'How many objects a page holds, 1–100.' }),
  starting_after: objectId.optional().meta({
    description: 'The id of the last object of the previous page: answers the page after it (`has_more` says whether there is one).',
  }),
};

/** Query of `GET /v1/payments`. */
export const listPaymentsQuery = z.strictObject({ ...listQuery, checkout_session: objectId.optional() });

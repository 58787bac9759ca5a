import { z } from 'zod';
import { invoiceStatuses, subscriptionStatuses } from '../domain/billing/entities';
import { MAX_DEFAULT_TAX_RATES } from '../domain/billing/tax-rates';
import { listQuery, objectId } from './schemas';

const metadata = z.record(z.string(), z.string()).optional().meta({ description: 'Merged into what is there; an empty value removes its key.' });
const taxRateIds = z.array(objectId).max(MAX_DEFAULT_TAX_RATES);

/** Body of `POST /v1/subscriptions`. */
export const createSubscriptionBody = z.strictObject({
  customer: objectId.meta({ description: 'The customer to bill (`cus_…`), who has a saved payment method.' }),
  items: z
    .array(
      z.strictObject({
        price: objectId.meta({ description: 'A recurring price (`price_…`).' }),
        quantity: z.number().int().optional().meta({ description: 'How many, 1 by default.' }),
      }),
    )
    .length(1)
    .meta({ description: 'The one price billed, and its quantity.' }),
  default_payment_method: objectId.optional().meta({ description: "The customer's saved payment method to charge; their newest by default." }),
  trial_period_days: z.number().int().optional().meta({ description: 'Days of free trial before the first charge (1–730).' }),
  metadata,
  coupon: objectId.optional().meta({ description: 'A coupon (`coupon_…`) its invoices take while its duration lasts. Not with `promotion_code`.' }),
  promotion_code: objectId
    .optional()
    .meta({ description: "A promotion code's id (`promo_…`): its coupon applies as `coupon` would, within the code's limits. Not with `coupon`." }),
  default_tax_rates: taxRateIds.optional().meta({ description: 'Tax rates (`txr_…`) each invoice adds, inclusive or exclusive as each says.' }),
});

/** Body of `POST /v1/subscriptions/:id`. */
export const updateSubscriptionBody = z.strictObject({
  price: objectId.optional().meta({ description: 'A new recurring price on the same interval, in the same currency.' }),
  quantity: z.number().int().optional(),
  proration_behavior: z
    .enum(['create_prorations', 'none'])
    .optional()
    .meta({ description: '`create_prorations` (default): the unused and remaining time of the change are billed on the next invoice.' }),
  cancel_at_period_end: z.boolean().optional().meta({ description: 'End at the end of the current period instead of renewing.' }),
  default_payment_method: objectId.optional(),
  metadata,
  coupon: z
    .union([objectId, z.literal('')])
    .optional()
    .meta({ description: 'A coupon its invoices take from now, in place of its discount; `""` removes its discount.' }),
  promotion_code: objectId.optional().meta({ description: "A promotion code's id: its coupon applies from now, in place of its discount." }),
  default_tax_rates: z
    .union([taxRateIds, z.literal('')])
    .optional()
    .meta({ description: 'The tax rates its next invoices add; `[]` or `""` removes them.' }),
});

/** Query of `GET /v1/subscriptions`. */
export const listSubscriptionsQuery = z.strictObject({
  ...listQuery,
  customer: objectId.optional(),
  status: z.enum(subscriptionStatuses).optional(),
});

/** Query of `GET /v1/invoices`. */
export const listInvoicesQuery = z.strictObject({
  ...listQuery,
  customer: objectId.optional(),
  subscription: objectId.optional(),
  status: z.enum(invoiceStatuses).optional(),
});

/** Body of `POST /v1/invoices/:id/pay`. */
export const payInvoiceBody = z.strictObject({
  payment_method: objectId.optional().meta({ description: "Another of the customer's saved payment methods to charge." }),
});

const unixSeconds = z.number().int().min(0).max(4_102_444_800);

/** Body of `POST /v1/test_helpers/test_clocks`. */
export const createTestClockBody = z.strictObject({
  frozen_time: unixSeconds.meta({ description: 'The time the clock starts at (Unix seconds).' }),
  name: z.string().max(300).optional(),
});

/** Body of `POST /v1/test_helpers/test_clocks/:id/advance`. */
export const advanceTestClockBody = z.strictObject({
  frozen_time: unixSeconds.meta({ description: 'The later time to move the clock to (Unix seconds).' }),
});

/** Body of `POST /v1/billing_portal/sessions`. */
export const createPortalSessionBody = z.strictObject({
  customer: objectId.meta({ description: 'The customer (`cus_…`) whose subscriptions and invoices the page shows.' }),
  return_url: z.string().max(2048).optional().meta({ description: 'An absolute http(s) URL the page\'s "Return" link goes to.' }),
  locale: z.string().max(35).optional().meta({ description: "'auto' (default: the customer's browser) or a supported locale such as de, pt-BR." }),
});

import { TillpointError } from '../../domain/shared/errors';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createCheckoutSession } from '../../domain/sessions/use-cases/create-checkout-session';
import { expireCheckoutSession } from '../../domain/sessions/use-cases/expire-checkout-session';
import { getCheckoutSession } from '../../domain/sessions/use-cases/get-checkout-session';
import { listCheckoutSessions } from '../../domain/sessions/use-cases/list-checkout-sessions';
import { defineRoute } from '../define-route';
import { checkoutSessionListSchema, checkoutSessionSchema } from '../response-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { pageQuery } from '../lifecycle-schemas';
import { listBody, pageRequest } from '../pagination';
import { checkoutSessionLineItemsOf, createCheckoutSessionBody, discountReferenceOf, idParams, shippingOptionsOf } from '../schemas';
import { checkoutSessionView } from '../views/checkout-session';

const tag = 'Checkout sessions';

/** `/v1/checkout/sessions`. */
export async function checkoutSessionRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/checkout/sessions',
      resource: 'checkout_sessions',
      tag,
      summary: 'Open a checkout session',
      body: createCheckoutSessionBody,
      response: checkoutSessionSchema,
      description: 'Send the shopper to `url`. The session takes one successful payment, then is `complete`; it expires at `expires_at` (24 h unless said).',
    },
    async ({ body, request }) => {
      const setup = body.mode === 'setup';
      if (!setup) {
        // Lines that all name prices may leave the currency out: the session takes theirs.
        const pricesOnly = body.line_items?.length && body.line_items.every((item) => item.price !== undefined);
        // A subscription's one line names its price, so its currency is the price's: the line is asked for first.
        const required = body.mode === 'subscription' ? (['line_items', 'currency'] as const) : (['currency', 'line_items'] as const);
        for (const param of required) {
          if (param === 'currency' && pricesOnly) continue;
          if (body[param] === undefined) throw new TillpointError('parameter_missing', `Missing required parameter: ${param}`, { param });
        }
      }
      const session = await createCheckoutSession(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        input: {
          purpose: body.mode ?? 'payment',
          subscriptionData: body.subscription_data && {
            trialPeriodDays: body.subscription_data.trial_period_days ?? null,
            metadata: body.subscription_data.metadata,
          },
          // Empty in setup mode without one: the account's default currency (createCheckoutSession).
          currency: body.currency ?? '',
          lineItems: checkoutSessionLineItemsOf(body.line_items),
          successUrl: body.success_url,
          cancelUrl: body.cancel_url,
          captureMethod: body.capture_method,
          paymentMethodTypes: body.payment_method_types,
          customerId: body.customer,
          customerEmail: body.customer_email,
          customerCreation: body.customer_creation,
          paymentMethodSave: body.payment_method_options?.card.save ?? null,
          requireCvcRecollection: body.payment_method_options?.card.require_cvc_recollection,
          locale: body.locale,
          metadata: body.metadata,
          clientReferenceId: body.client_reference_id,
          expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at * 1000),
          allowPromotionCodes: body.allow_promotion_codes,
          shippingOptions: shippingOptionsOf(body.shipping_options),
          billingAddressCollection: body.billing_address_collection,
          shippingAllowedCountries: body.shipping_address_collection?.allowed_countries ?? null,
          customFields: body.custom_fields,
          uiMode: body.ui_mode,
          returnUrl: body.return_url,
        },
        discount: discountReferenceOf(body.discounts),
      });
      return checkoutSessionView(session, deps.publicUrl);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/checkout/sessions',
      resource: 'checkout_sessions',
      tag,
      summary: 'List checkout sessions, newest first',
      query: pageQuery,
      response: checkoutSessionListSchema,
    },
    async ({ query, request }) =>
      listBody('/v1/checkout/sessions', await listCheckoutSessions(deps, { scope: scopeOf(request), page: pageRequest(query) }), (session) =>
        checkoutSessionView(session, deps.publicUrl),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/checkout/sessions/:id',
      resource: 'checkout_sessions',
      tag,
      summary: 'Retrieve a checkout session',
      params: idParams,
      response: checkoutSessionSchema,
    },
    async ({ params, request }) => checkoutSessionView(await getCheckoutSession(deps, { scope: scopeOf(request), id: params.id }), deps.publicUrl),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/checkout/sessions/:id/expire',
      resource: 'checkout_sessions',
      tag,
      summary: 'Expire an open checkout session so it can no longer be paid',
      params: idParams,
      response: checkoutSessionSchema,
    },
    async ({ params, request }) =>
      checkoutSessionView(await expireCheckoutSession(deps, { scope: scopeOf(request), id: params.id, actor: keyActorOf(request) }), deps.publicUrl),
  );
}

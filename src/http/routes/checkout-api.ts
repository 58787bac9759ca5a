import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps';
import { getCheckoutPage } from '../../domain/sessions/use-cases/get-checkout-page';
import { payCheckoutSession } from '../../domain/payments/use-cases/pay-checkout-session';
import { tokenizeBankAccount, tokenizeCard, tokenizeSavedCardCvc } from '../../domain/payments/use-cases/tokenize-card';
import { defineRoute } from '../define-route';
import {
  applyPromotionCodeBody,
  checkoutAddressesBody,
  chooseShippingRateBody,
  idParams,
  lineItemParams,
  payBody,
  setLineItemQuantityBody,
  tokenizeBankAccountBody,
  tokenizeCardBody,
  tokenizeCvcBody,
} from '../schemas';
import { setCheckoutAddresses } from '../../domain/addresses/use-cases/set-checkout-addresses';
import { z } from 'zod';
import { setLineItemQuantity } from '../../domain/sessions/use-cases/set-line-item-quantity';
import { PromotionCodeGuessLimit } from '../../domain/pricing/code-guessing';
import { RateLimitedError } from '../../domain/api-guards/rules';
import { TillpointError } from '../../domain/shared/errors';
import { chooseShippingRate } from '../../domain/pricing/use-cases/choose-shipping-rate';
import { applyPromotionCode } from '../../domain/pricing/use-cases/apply-promotion-code';
import { completionUrl, publicCheckoutSessionView } from '../views/checkout-session';

/**
 * The shopper's side: read a session, tokenize a test card, pay. The unguessable session id is the
 * only credential, as design.md §6 allows.
 */
export async function checkoutApi(
  app: FastifyInstance,
  { deps, codeGuessLimit = new PromotionCodeGuessLimit() }: { deps: Deps; codeGuessLimit?: PromotionCodeGuessLimit },
) {
  const tag = 'Checkout page';

  /** What a shopper's change answers: the session as the page shows it, priced again, never cached. */
  const sessionAfterChange = async (sessionId: string, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const page = await getCheckoutPage(deps, { sessionId });
    return publicCheckoutSessionView(page, deps.publicUrl, request.headers['accept-language']);
  };

  defineRoute(
    app,
    { method: 'GET', url: '/api/checkout/sessions/:id', tag, summary: "The shopper's view of a session", params: idParams, internal: true },
    async ({ params, request, reply }) => {
      reply.header('cache-control', 'no-store');
      reply.header('vary', 'accept-language');
      const page = await getCheckoutPage(deps, { sessionId: params.id });
      return publicCheckoutSessionView(page, deps.publicUrl, request.headers['accept-language']);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/card-tokens',
      tag,
      summary: 'Tokenize a test card into a single-use nonce (test processor only)',
      params: idParams,
      body: tokenizeCardBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      const token = await tokenizeCard(deps, {
        sessionId: params.id,
        card: {
          number: body.number,
          expMonth: body.exp_month,
          expYear: body.exp_year,
          cvc: body.cvc,
          postalCode: body.postal_code ?? null,
        },
      });
      reply.header('cache-control', 'no-store');
      return token;
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/bank-account-tokens',
      tag,
      summary: 'Tokenize a test US bank account and its accepted mandate into a single-use nonce (test processor only)',
      params: idParams,
      body: tokenizeBankAccountBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      const token = await tokenizeBankAccount(deps, {
        sessionId: params.id,
        account: {
          routingNumber: body.routing_number,
          accountNumber: body.account_number,
          accountType: body.account_type,
          accountHolderType: body.account_holder_type,
          holderName: body.account_holder_name,
          mandateText: body.mandate_text,
        },
      });
      reply.header('cache-control', 'no-store');
      return token;
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/cvc-tokens',
      tag,
      summary: "Tokenize a saved card's CVC typed again into a CVC-only nonce (test processor only)",
      params: idParams,
      body: tokenizeCvcBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      const token = await tokenizeSavedCardCvc(deps, { sessionId: params.id, paymentMethodId: body.payment_method, cvc: body.cvc });
      reply.header('cache-control', 'no-store');
      return token;
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/payments',
      tag,
      summary: 'Pay the session with a payment method nonce',
      params: idParams,
      body: payBody,
      internal: true,
    },
    async ({ params, body, request }) => {
      const { session, payment } = await payCheckoutSession(deps, {
        sessionId: params.id,
        paymentMethodType: body.payment_method_type,
        nonce: body.nonce,
        paymentMethodId: body.payment_method,
        savePaymentMethod: body.save_payment_method,
        email: body.email,
        deviceData: body.device_data ?? null,
        acceptLanguage: request.headers['accept-language'] ?? null,
        customFields: body.custom_fields,
      });
      // A setup session saved the card: nothing was charged.
      return { status: payment?.status ?? 'succeeded', redirect_url: completionUrl(session, deps.publicUrl) };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/promotion_code',
      tag,
      summary: 'Apply a promotion code to the session (or remove it with null); the server prices the session again',
      params: idParams,
      body: applyPromotionCodeBody,
      internal: true,
    },
    async ({ params, body, request, reply }) => {
      // Wrong codes are counted per session and per address: guessing codes meets `rate_limited`.
      const now = deps.clock.now().getTime();
      if (body.code !== null) {
        try {
          codeGuessLimit.assertAllowed(params.id, request.ip, now);
        } catch (error) {
          if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
          throw error;
        }
      }
      try {
        await applyPromotionCode(deps, { sessionId: params.id, code: body.code });
      } catch (error) {
        if (body.code !== null && error instanceof TillpointError && error.code === 'parameter_invalid' && error.param === 'promotion_code') {
          codeGuessLimit.recordWrong(params.id, request.ip, now);
        }
        throw error;
      }
      return sessionAfterChange(params.id, request, reply);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/shipping_rate',
      tag,
      summary: "Choose one of the session's shipping options; the server prices the session again",
      params: idParams,
      body: chooseShippingRateBody,
      internal: true,
    },
    async ({ params, body, request, reply }) => {
      await chooseShippingRate(deps, { sessionId: params.id, shippingRateId: body.shipping_rate });
      return sessionAfterChange(params.id, request, reply);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/addresses',
      tag,
      summary:
        "The shopper's shipping details and billing address, checked against their country's format; the server prices the session again (dynamic tax rates)",
      params: idParams,
      body: checkoutAddressesBody,
      internal: true,
    },
    async ({ params, body, request, reply }) => {
      await setCheckoutAddresses(deps, {
        sessionId: params.id,
        addresses: {
          ...(body.shipping_details !== undefined ? { shippingDetails: body.shipping_details } : {}),
          ...(body.billing_address !== undefined ? { billingAddress: body.billing_address } : {}),
        },
      });
      return sessionAfterChange(params.id, request, reply);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/line_items/:index/quantity',
      tag,
      summary: "Change an adjustable line's quantity; the server prices the session again",
      params: lineItemParams,
      body: setLineItemQuantityBody,
      internal: true,
    },
    async ({ params, body, request, reply }) => {
      await setLineItemQuantity(deps, { sessionId: params.id, index: params.index, quantity: body.quantity });
      return sessionAfterChange(params.id, request, reply);
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: '/api/checkout/address-formats', tag, summary: 'The countries the address data describes (ISO 3166-1 alpha-2)', internal: true },
    async ({ reply }) => {
      reply.header('cache-control', 'public, max-age=86400');
      return { countries: deps.addressFormats.countries() };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/checkout/address-formats/:country',
      tag,
      summary: "One country's address format: the form's fields in order, required fields, postal-code rule, labels, subdivisions",
      params: z.strictObject({ country: z.string().regex(/^[A-Za-z]{2}$/) }),
      internal: true,
    },
    async ({ params, reply }) => {
      const format = deps.addressFormats.format(params.country);
      if (!format) throw new TillpointError('resource_missing', `No address format for country '${params.country}'`, { param: 'country' });
      reply.header('cache-control', 'public, max-age=86400');
      return {
        country: format.country,
        rows: format.rows,
        required: format.required,
        uppercase: format.uppercase,
        postal_code_pattern: format.postalCodePattern,
        postal_code_examples: format.postalCodeExamples,
        labels: format.labels,
        states: format.states,
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { CheckoutSession } from '../../domain/entities';
import type { Deps } from '../../domain/ports';
import { getCheckoutPage, type CheckoutPage } from '../../domain/use-cases/get-checkout-page';
import { payCheckoutSession } from '../../domain/use-cases/pay-checkout-session';
import { tokenizeCard } from '../../domain/use-cases/tokenize-card';
import { negotiateLocale } from '../../domain/locale';
import { unixTime } from '../../domain/views';
import { defineRoute } from '../define-route';
import { idParams, payBody, tokenizeCardBody } from '../schemas';

/** Where the shopper goes once the session is paid. */
export function completionUrl(session: CheckoutSession, publicUrl: string): string {
  return session.successUrl
    ? session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id))
    : `${publicUrl}/c/${session.id}/done`;
}

/** What the shopper's page may see of a session: no metadata, no other payments, no internal ids. */
export function publicView(page: CheckoutPage, publicUrl: string, acceptLanguage?: string) {
  const { session, account, payment } = page;
  return {
    id: session.id,
    status: session.status,
    livemode: session.mode === 'live',
    merchant: {
      name: account.branding.displayName ?? account.name,
      logo_url: account.branding.logoUrl,
      accent_color: account.branding.accentColor,
    },
    currency: session.currency,
    // The locale the page shows: the session's, else the shopper's Accept-Language, else English.
    locale: negotiateLocale({ sessionLocale: session.locale, acceptLanguage }),
    line_items: session.lineItems.map((item) => ({
      name: item.name,
      unit_amount: item.unitAmount,
      quantity: item.quantity,
      amount: item.amount,
    })),
    amount_total: session.amountTotal,
    customer_email: session.customerEmail,
    payment_method_types: session.paymentMethodTypes,
    expires_at: unixTime(session.expiresAt),
    cancel_url: session.cancelUrl,
    redirect_url: session.status === 'complete' ? completionUrl(session, publicUrl) : null,
    payment: payment && {
      status: payment.status,
      amount: payment.amount,
      brand: payment.paymentMethod?.brand ?? null,
      last4: payment.paymentMethod?.last4 ?? null,
    },
    processor: { name: page.processor.name, ...page.processor.client },
  };
}

/**
 * The shopper's side: read a session, tokenize a test card, pay. The unguessable session id is the
 * only credential, as design.md §6 allows.
 */
export async function checkoutApi(app: FastifyInstance, { deps }: { deps: Deps }) {
  const tag = 'Checkout page';

  defineRoute(
    app,
    { method: 'GET', url: '/api/checkout/sessions/:id', tag, summary: "The shopper's view of a session", params: idParams, internal: true },
    async ({ params, request, reply }) => {
      reply.header('cache-control', 'no-store');
      reply.header('vary', 'accept-language');
      const page = await getCheckoutPage(deps, { sessionId: params.id });
      return publicView(page, deps.publicUrl, request.headers['accept-language']);
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
      url: '/api/checkout/sessions/:id/payments',
      tag,
      summary: 'Pay the session with a payment method nonce',
      params: idParams,
      body: payBody,
      internal: true,
    },
    async ({ params, body }) => {
      const { session, payment } = await payCheckoutSession(deps, {
        sessionId: params.id,
        paymentMethodType: body.payment_method_type,
        nonce: body.nonce,
        email: body.email,
        deviceData: body.device_data ?? null,
      });
      return { status: payment.status, redirect_url: completionUrl(session, deps.publicUrl) };
    },
  );
}

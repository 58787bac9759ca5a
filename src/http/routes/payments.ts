import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { cancelPayment } from '../../domain/payments/use-cases/cancel-payment';
import { capturePayment } from '../../domain/payments/use-cases/capture-payment';
import { getPayment } from '../../domain/payments/use-cases/get-payment';
import { listPayments } from '../../domain/payments/use-cases/list-payments';
import { searchPaymentsByQuery } from '../../domain/payments/use-cases/search-payments-by-query';
import { defineRoute } from '../define-route';
import { paymentListSchema, paymentSchema, receiptSchema } from '../response-schemas';
import { sendReceipt } from '../../domain/payments/use-cases/send-receipt';
import { receiptView } from '../views/receipt';
import { captureBody, createPaymentBody } from '../lifecycle-schemas';
import { chargeSavedPaymentMethod } from '../../domain/payments/use-cases/charge-saved-payment-method';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams, listPaymentsQuery, searchPaymentsQuery } from '../schemas';
import { paymentView } from '../views/payment';

const tag = 'Payments';

/** `/v1/payments`. */
export async function paymentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/payments',
      resource: 'payments',
      tag,
      summary: 'List payments, newest first',
      query: listPaymentsQuery,
      response: paymentListSchema,
    },
    async ({ query, request }) => {
      const page = await listPayments(deps, {
        scope: scopeOf(request),
        page: pageRequest(query),
        checkoutSessionId: query.checkout_session,
      });
      return listBody('/v1/payments', page, paymentView);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/payments/search',
      resource: 'payments',
      tag,
      summary: "Search payments with the query language: field:'value', AND, > and < on amount and created (docs/api.md)",
      query: searchPaymentsQuery,
      response: paymentListSchema,
    },
    async ({ query, request }) => {
      const page = await searchPaymentsByQuery(deps, { scope: scopeOf(request), query: query.query, page: pageRequest(query) });
      return listBody('/v1/payments/search', page, paymentView);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payments',
      resource: 'payments',
      tag,
      summary: "Charge a customer's saved payment method (merchant-initiated, no shopper present)",
      description:
        'The payment belongs to no checkout session (`checkout_session: null`); it fires the same events and is captured, voided and refunded like any other. A decline answers 402 `card_declined` and leaves a `failed` payment (`payment.failed`).',
      body: createPaymentBody,
      response: paymentSchema,
      errors: [402, 404, 502, 504],
    },
    async ({ body, request }) =>
      paymentView(
        await chargeSavedPaymentMethod(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          customerId: body.customer,
          paymentMethodId: body.payment_method,
          amount: body.amount,
          currency: body.currency,
          captureMethod: body.capture_method,
        }),
      ),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/payments/:id', resource: 'payments', tag, summary: 'Retrieve a payment', params: idParams, response: paymentSchema },
    async ({ params, request }) => paymentView(await getPayment(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payments/:id/capture',
      resource: 'payments',
      tag,
      summary: 'Capture an authorized payment, in full or in part (the rest is released)',
      params: idParams,
      body: captureBody,
      response: paymentSchema,
      errors: [502, 504],
    },
    async ({ params, body, request }) =>
      paymentView(await capturePayment(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, amount: body.amount })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payments/:id/cancel',
      resource: 'payments',
      tag,
      summary: 'Cancel (void) an authorized payment',
      params: idParams,
      response: paymentSchema,
      errors: [502, 504],
    },
    async ({ params, request }) => paymentView(await cancelPayment(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/payments/:id/send_receipt',
      resource: 'payments',
      tag,
      summary: "Email the receipt of a succeeded payment to the shopper's email (again)",
      description:
        "Sends now, to the email of the payment (its session's or its customer's), in the session's language (docs/receipts.md). A payment with no email answers 400 `receipt_email_missing`; a payment not `succeeded` answers 409 `payment_not_succeeded`; an install without `SMTP_URL` answers 409 `email_not_configured`; a mail server that refuses answers 502 `email_not_sent`. Each call sends one email; an `Idempotency-Key` replay sends none.",
      params: idParams,
      response: receiptSchema,
      errors: [502],
    },
    async ({ params, request }) => receiptView(await sendReceipt(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id })),
  );
}

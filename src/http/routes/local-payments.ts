import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { answerLocalPayment } from '../../domain/payments/use-cases/answer-local-payment';
import { startLocalPayment } from '../../domain/payments/use-cases/start-local-payment';
import { defineRoute } from '../define-route';
import { answerLocalPaymentBody, idParams, localPaymentParams, startLocalPaymentBody } from '../schemas';

/**
 * Local payment methods (iDEAL, Bancontact…) on the checkout page: the payment that waits for the
 * bank is started, then the shopper's answer in the bank's window is reported. The bank's
 * confirmation comes from the processor (`/webhooks/braintree/:account`, or the test processor).
 */
export async function localPaymentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const tag = 'Checkout page';
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/local-payments',
      tag,
      summary: 'Start paying with a local payment method: the payment waits for the bank, processing',
      params: idParams,
      body: startLocalPaymentBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      const { payment, country } = await startLocalPayment(deps, {
        sessionId: params.id,
        paymentMethodType: body.payment_method_type,
        email: body.email,
        processorPaymentId: body.local_payment_id ?? null,
        customFields: body.custom_fields,
      });
      reply.header('cache-control', 'no-store');
      return { payment: payment.id, status: payment.status, local_payment_id: payment.processorPaymentId, country };
    },
  );
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/local-payments/:payment/answer',
      tag,
      summary: "The shopper's answer in the bank's window: approve (test processor only), fail or cancel",
      params: localPaymentParams,
      body: answerLocalPaymentBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      const { payment } = await answerLocalPayment(deps, { sessionId: params.id, paymentId: params.payment, answer: body.answer });
      reply.header('cache-control', 'no-store');
      return { payment: payment.id, status: payment.status };
    },
  );
}

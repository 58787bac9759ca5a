import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { tokenizeGooglePay } from '../../domain/payments/use-cases/tokenize-google-pay';
import { defineRoute } from '../define-route';
import { idParams } from '../schemas';

const googlePayTokenBody = z.strictObject({
  /** `paymentMethodData.tokenizationData.token` as Google Pay returned it. */
  token: z.string().min(2).max(8192),
  /** `paymentMethodData.info.cardNetwork`, e.g. VISA. */
  card_network: z.string().min(2).max(20),
  /** `paymentMethodData.info.cardDetails`: the last four digits. */
  card_details: z.string().min(1).max(8),
});

/** The checkout page hands over a Google Pay test-gateway token (test processor only). */
export async function googlePayTokenRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/google-pay-tokens',
      tag: 'Checkout page',
      summary: "Exchange a Google Pay token from Google's test gateway for a single-use nonce (test mode only)",
      params: idParams,
      body: googlePayTokenBody,
      internal: true,
    },
    async ({ params, body, reply }) => {
      reply.header('cache-control', 'no-store');
      return tokenizeGooglePay(deps, {
        sessionId: params.id,
        payment: { token: body.token, cardNetwork: body.card_network, cardDetails: body.card_details },
      });
    },
  );
}

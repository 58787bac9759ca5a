import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { verifyThreeDSecure } from '../../domain/payments/use-cases/verify-three-d-secure';
import { defineRoute } from '../define-route';
import { idParams } from '../schemas';

const nonce = z.string().min(1).max(4096);

/** 3-D Secure rehearsed on the checkout page in test mode, through the test processor. */
export async function threeDSecureTestRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const tag = 'Checkout page';
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/three-d-secure',
      tag,
      summary: 'Verify a test card nonce with 3-D Secure, as the Braintree sandbox does (test processor only)',
      params: idParams,
      body: z.strictObject({ nonce }),
      internal: true,
    },
    async ({ params, body, reply }) => {
      reply.header('cache-control', 'no-store');
      return verifyThreeDSecure(deps, { sessionId: params.id, nonce: body.nonce });
    },
  );
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/three-d-secure/challenge',
      tag,
      summary: "Answer the test processor's 3-D Secure test challenge: completed or failed (test processor only)",
      params: idParams,
      body: z.strictObject({ nonce, passed: z.boolean() }),
      internal: true,
    },
    async ({ params, body, reply }) => {
      reply.header('cache-control', 'no-store');
      return verifyThreeDSecure(deps, { sessionId: params.id, nonce: body.nonce, answer: { passed: body.passed } });
    },
  );
}

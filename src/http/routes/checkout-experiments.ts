import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { recordExposure } from '../../domain/flags/use-cases/record-exposure';
import { defineRoute } from '../define-route';
import { exposureBody } from '../flag-schemas';
import { idParams } from '../schemas';

/** The checkout page reports that it showed a session an experiment's variant. */
export async function checkoutExperimentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/checkout/sessions/:id/exposures',
      tag: 'Checkout page',
      summary: 'Record that the page showed this session its variant (idempotent)',
      params: idParams,
      body: exposureBody,
      internal: true,
    },
    async ({ params, body }) => {
      const exposure = await recordExposure(deps, { sessionId: params.id, key: body.key });
      return exposure
        ? { object: 'exposure', experiment: exposure.experimentId, variant: exposure.variant, recorded: exposure.recorded }
        : { object: 'exposure', experiment: null, variant: null, recorded: false };
    },
  );
}

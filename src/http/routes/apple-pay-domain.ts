import type { FastifyInstance } from 'fastify';
import { TillpointError } from '../../domain/shared/errors';
import { errorBody } from '../errors';

/** Where Apple looks for the domain association file when a domain is registered for Apple Pay on the web. */
export const APPLE_PAY_DOMAIN_ASSOCIATION_PATH = '/.well-known/apple-developer-merchantid-domain-association';

/**
 * Serves the Apple Pay domain association file (APPLE_PAY_DOMAIN_ASSOCIATION, docs/braintree.md)
 * at the path Apple checks, as Braintree hands it out; 404 when none is configured.
 */
export function registerApplePayDomainRoute(app: FastifyInstance, association: string | null) {
  app.get(APPLE_PAY_DOMAIN_ASSOCIATION_PATH, async (request, reply) => {
    if (association === null) {
      return reply
        .status(404)
        .send(
          errorBody(new TillpointError('resource_missing', 'No Apple Pay domain association file is configured (APPLE_PAY_DOMAIN_ASSOCIATION)'), request.id),
        );
    }
    return reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(association);
  });
}

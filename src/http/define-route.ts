import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseInput } from './errors';

/**
 * What a route declares about itself. The same zod schemas validate the request and describe it in
 * the OpenAPI document, so the two cannot drift apart.
 */
export interface RouteContract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** One line for the API reference. */
  summary: string;
  /** Group in the API reference (`Checkout sessions`, `Payments`…). */
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** HTTP status of a success; 200 unless said. */
  status?: number;
}

export type AnyRouteContract = RouteContract<z.ZodType, z.ZodType, z.ZodType>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `defineRoute`; read by the OpenAPI generator. */
    contract?: AnyRouteContract;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Registers a route whose params, query and body are parsed by its contract's schemas. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  app: FastifyInstance,
  contract: RouteContract<P, Q, B>,
  handler: (input: {
    params: Parsed<P>;
    query: Parsed<Q>;
    body: Parsed<B>;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>,
): void {
  app.route({
    method: contract.method,
    url: contract.url,
    config: { contract: contract as unknown as AnyRouteContract },
    handler: async (request, reply) => {
      const params = contract.params ? parseInput(contract.params, request.params ?? {}) : undefined;
      const query = contract.query ? parseInput(contract.query, request.query ?? {}) : undefined;
      const body = contract.body ? parseInput(contract.body, request.body ?? {}) : undefined;
      const result = await handler({
        params: params as Parsed<P>,
        query: query as Parsed<Q>,
        body: body as Parsed<B>,
        request,
        reply,
      });
      if (contract.status) reply.status(contract.status);
      return result;
    },
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from './errors';
import type { ApiAccess, ApiResource } from '../domain/team/api-key-permissions';

/**
 * What a route without a body (or query) schema accepts: nothing, or `{}`. Anything else is refused
 * (an unknown field by name, a non-object as such) before the route acts.
 */
const nothing = z.strictObject({});

/**
 * The body as the schema sees it: none (no body, an empty one) is `{}`; `null`, a string, an array
 * stay what they are, so the schema refuses them rather than reading them as "no parameters".
 */
function bodyOf(request: FastifyRequest): unknown {
  return request.body === undefined || request.body === '' ? {} : request.body;
}

/**
 * What a route declares about itself. The same zod schemas validate the request and describe it in
 * the OpenAPI document, so the two cannot drift apart.
 */
export interface RouteBasics<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** One line for the API reference. */
  summary: string;
  /** More words for the API reference (Markdown), when one line is not enough. */
  description?: string;
  /** Group in the API reference (`Checkout sessions`, `Payments`…). */
  tag: string;
  /**
   * What a restricted key needs a grant on to call this route (docs/api.md#api-keys). Every `/v1`
   * route names one: the merchant API refuses to register one that does not.
   */
  resource?: ApiResource;
  /** The grant needed: `read` for GET, `write` for POST and DELETE, unless said. */
  keyAccess?: ApiAccess;
  params?: P;
  query?: Q;
  body?: B;
  /** A larger body limit than the server's, in bytes (a route that takes files). */
  bodyLimit?: number;
  /** What a body over `bodyLimit` is told besides the limit: the limit behind it (a file's). */
  bodyLimitNote?: string;
  /** HTTP status of a success; 200 unless said. */
  status?: number;
  /**
   * Error statuses this route answers beyond the ones every operation may (400 for bad input, 404
   * with an id in the path, 401/403/429 with a secret key, 409 on an idempotent POST, 500), e.g.
   * 402 for a decline, 502/504 when the processor is involved.
   */
  errors?: number[];
}

/**
 * A route of the public contract: it names the schema of its success answer, a zod schema with an
 * `id` (see `response-schemas.ts`), which the OpenAPI document shows as `#/components/schemas/<id>`.
 * `stream: true` answers `text/event-stream` whose `data:` lines are each one such object.
 */
export interface PublicRoute {
  response: z.ZodType;
  stream?: boolean;
  internal?: false;
}

/**
 * A route only our own pages call (the checkout page's `/api/checkout/*`, OFREP for its flag SDK):
 * left out of the OpenAPI document, free to change with the page.
 */
interface InternalRoute {
  internal: true;
  response?: z.ZodType;
}

export type RouteContract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = RouteBasics<P, Q, B> & (PublicRoute | InternalRoute);

export type AnyRouteContract = RouteContract<z.ZodType, z.ZodType, z.ZodType>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `defineRoute`; read by the OpenAPI generator. */
    contract?: AnyRouteContract;
  }
}

/** The grant a call of this route needs: the contract's, or read for GET and write otherwise. */
export function accessOf(contract: Pick<AnyRouteContract, 'method' | 'keyAccess'>): ApiAccess {
  return contract.keyAccess ?? (contract.method === 'GET' ? 'read' : 'write');
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Registers a route whose params, query and body are parsed by its contract's schemas. A route that
 * declares no body (or query) refuses any but an empty one.
 */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  app: FastifyInstance,
  contract: RouteContract<P, Q, B>,
  handler: (input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B>; request: FastifyRequest; reply: FastifyReply }) => Promise<unknown>,
): void {
  app.route({
    method: contract.method,
    url: contract.url,
    ...(contract.bodyLimit ? { bodyLimit: contract.bodyLimit } : {}),
    config: { contract: contract as unknown as AnyRouteContract },
    handler: async (request, reply) => {
      const params = contract.params ? parseInput(contract.params, request.params ?? {}) : undefined;
      const parsedQuery = parseInput(contract.query ?? nothing, request.query ?? {});
      const parsedBody = parseInput(contract.body ?? nothing, bodyOf(request));
      const query = contract.query ? parsedQuery : undefined;
      const body = contract.body ? parsedBody : undefined;
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

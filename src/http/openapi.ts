import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { accessOf, type AnyRouteContract, type PublicRoute, type RouteBasics } from './define-route';
import { errorSchemasByStatus } from './response-schemas';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes behind the secret-key check (merchant API plugin). */
    secretKeyAuth?: boolean;
  }
}

/** A registered route as the document sees it. */
export interface DocumentedRoute {
  contract: RouteBasics<z.ZodType, z.ZodType, z.ZodType> & PublicRoute;
  secretKeyAuth: boolean;
}

/**
 * Starts collecting the routes registered after this call that carry a public `defineRoute`
 * contract. Read the result after the server is ready: plugins may still be adding flags to a
 * route's config. Internal routes (the checkout page's, OFREP) and the dashboard's own API (cookie
 * session + CSRF) are not part of the merchant contract and stay out of the document.
 */
export function collectDocumentedRoutes(app: FastifyInstance): () => DocumentedRoute[] {
  const seen: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    seen.push(route);
  });
  return () =>
    seen
      .filter((route) => route.config?.contract && route.method === route.config.contract.method)
      .filter((route) => !route.config!.contract!.internal && !route.url.startsWith('/dashboard/'))
      .map((route) => ({
        contract: route.config!.contract! as DocumentedRoute['contract'],
        secretKeyAuth: route.config!.secretKeyAuth === true,
      }));
}

type JsonSchema = Record<string, unknown>;

const schemaRef = (id: string) => `#/components/schemas/${id}`;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Every schema with an `id` (the answers and error envelopes), as the document's components. */
function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, { io: 'output', unrepresentable: 'any', uri: schemaRef }) as {
    schemas: Record<string, JsonSchema>;
  };
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
}

/** The `id` a response schema was given; a public route must answer with a named schema. */
function responseId(contract: AnyRouteContract): string {
  const id = contract.response && (z.globalRegistry.get(contract.response)?.id as string | undefined);
  if (!id) {
    throw new Error(
      `${contract.method} ${contract.url}: its contract needs a response schema with an id (see src/http/response-schemas.ts), or internal: true`,
    );
  }
  return id;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties as Record<string, JsonSchema> | undefined) ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(description ? { description } : {}),
    schema: property,
  }));
}

/** The error statuses an operation may answer (design.md §8), from what its contract declares. */
export function errorStatusesOf(contract: AnyRouteContract, secretKeyAuth: boolean): number[] {
  const statuses = new Set([500, ...(contract.errors ?? [])]);
  if (contract.params || contract.query || contract.body) statuses.add(400);
  if (contract.body) statuses.add(413);
  if (contract.params) statuses.add(404);
  if (secretKeyAuth) for (const status of [401, 403, 429]) statuses.add(status);
  if (secretKeyAuth && contract.method === 'POST') statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

const operationIdOf = (method: string, url: string) =>
  `${method}${url.replace(/[:/_]+([a-z])/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`;

/** Builds the OpenAPI 3.1 document from the routes' own contracts. */
export function buildOpenApiDocument(routes: DocumentedRoute[], options: { serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const { contract, secretKeyAuth } of routes) {
    const path = contract.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const method = contract.method.toLowerCase();
    const idempotent = secretKeyAuth && contract.method === 'POST';
    tags.add(contract.tag);
    const success = String(contract.status ?? 200);
    const successSchema = { $ref: schemaRef(responseId(contract)) };
    paths[path] ??= {};
    paths[path][method] = {
      operationId: operationIdOf(method, contract.url),
      summary: contract.summary,
      ...(contract.description ? { description: contract.description } : {}),
      tags: [contract.tag],
      security: secretKeyAuth ? [{ secretKey: [] }] : [],
      // The grant a restricted key (rk_…) needs to call this operation (docs/api.md#api-keys).
      ...(contract.resource ? { 'x-restricted-key-permission': { resource: contract.resource, access: accessOf(contract) } } : {}),
      parameters: [
        ...parametersOf(contract.params, 'path'),
        ...parametersOf(contract.query, 'query'),
        ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ],
      ...(contract.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(contract.body) } } } } : {}),
      responses: {
        [success]: {
          description: contract.stream ? 'A stream of server-sent events: each `data:` line is one object, as JSON.' : contract.summary,
          headers: {
            'Request-Id': { $ref: '#/components/headers/RequestId' },
            ...(idempotent ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}),
          },
          content: { [contract.stream ? 'text/event-stream' : 'application/json']: { schema: successSchema } },
        },
        ...Object.fromEntries(errorStatusesOf(contract, secretKeyAuth).map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }])),
      },
    };
  }
  const errorResponses = Object.fromEntries(
    [...errorSchemasByStatus.keys()].map((status) => [
      `Error${status}`,
      {
        description: z.globalRegistry.get(errorSchemasByStatus.get(status)!)?.description ?? `Error ${status}`,
        headers: {
          'Request-Id': { $ref: '#/components/headers/RequestId' },
          ...(status === 429 || status === 503 ? { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } } : {}),
        },
        content: { 'application/json': { schema: { $ref: schemaRef(`Error${status}`) } } },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tillpoint API',
      version: 'v1',
      description: [
        "Checkout sessions, payments, refunds and signed webhooks. Amounts are integers in the currency's minor unit.",
        '',
        'Authenticate with a secret key: `Authorization: Bearer sk_test_…`, or HTTP Basic with the key as the user name (`curl -u sk_test_…:`). A key acts only in its own account and mode.',
        '',
        '**Idempotency.** Every POST accepts an `Idempotency-Key`: the same key with the same parameters replays the first answer for 24 hours.',
        '',
        '**Pagination.** Lists answer `{object: "list", url, has_more, data}`, newest first; ask for the next page with `starting_after=<last id>`.',
        '',
        '**Rate limits.** 100 requests/s per account in live mode and 25/s in test mode; past that, 429 `rate_limited` with `Retry-After`.',
        '',
        '**Errors.** `{"error": {"type", "code", "message", "param"?, "decline_code"?, "request_id"}}`; each status lists the codes it may carry.',
      ].join('\n'),
    },
    servers: [{ url: options.serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A secret key of the account and mode the call acts in: `Authorization: Bearer sk_test_…` (HTTP Basic with the key as the user name and no password is accepted too).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Retry-safe POSTs: the same key with the same parameters replays the first answer for 24 hours; other parameters answer 409 idempotency_key_reused; a concurrent request with the key answers 409 idempotency_key_in_use.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
          example: 'order-1042-refund-1',
        },
      },
      headers: {
        RequestId: { description: "This request's id (`req_…`), also in error bodies.", schema: { type: 'string' } },
        IdempotentReplayed: {
          description: '`true` when the answer is a replay of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string' },
        },
      },
      schemas: componentSchemas(),
      responses: errorResponses,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { errorCatalogue } from '../domain/errors';
import type { AnyRouteContract } from './define-route';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes behind the secret-key check (merchant API plugin). */
    secretKeyAuth?: boolean;
  }
}

/** A registered route as the document sees it. */
export interface DocumentedRoute {
  contract: AnyRouteContract;
  secretKeyAuth: boolean;
}

/**
 * Starts collecting the routes registered after this call that carry a `defineRoute` contract.
 * Read the result after the server is ready: plugins may still be adding flags to a route's config.
 */
export function collectDocumentedRoutes(app: FastifyInstance): () => DocumentedRoute[] {
  const seen: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    seen.push(route);
  });
  return () =>
    seen
      .filter((route) => route.config?.contract && route.method === route.config.contract.method)
      // The dashboard's own API (cookie session + CSRF) is internal to our web app, not the merchant contract.
      .filter((route) => !route.url.startsWith('/dashboard/'))
      .map((route) => ({ contract: route.config!.contract!, secretKeyAuth: route.config!.secretKeyAuth === true }));
}

/** The error envelope of DESIGN §8, as a schema for the document. */
const errorEnvelope = z.strictObject({
  error: z.strictObject({
    type: z.enum([...new Set(Object.values(errorCatalogue).map((entry) => entry.type))] as [string, ...string[]]),
    code: z.enum(Object.keys(errorCatalogue) as [string, ...string[]]),
    message: z.string(),
    param: z.string().optional(),
    decline_code: z.string().optional(),
    request_id: z.string(),
  }),
});

type JsonSchema = Record<string, any>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema);
  const required = new Set<string>(object.required ?? []);
  return Object.entries<JsonSchema>(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const statusesByCode = (codes: number[]) => [...new Set(codes)].sort((a, b) => a - b);

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
    const errorStatuses = statusesByCode([
      400,
      404,
      500,
      ...(secretKeyAuth ? [401, 403, 429] : []),
      ...(idempotent || contract.method === 'POST' ? [409] : []),
    ]);
    const operationId = `${method}${contract.url.replace(/[:/_]+([a-z])/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`;
    paths[path] ??= {};
    paths[path][method] = {
      operationId,
      summary: contract.summary,
      tags: [contract.tag],
      security: secretKeyAuth ? [{ secretKey: [] }] : [],
      parameters: [
        ...parametersOf(contract.params, 'path'),
        ...parametersOf(contract.query, 'query'),
        ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ],
      ...(contract.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(contract.body) } } } }
        : {}),
      responses: {
        [success]: { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } },
        ...Object.fromEntries(errorStatuses.map((status) => [String(status), { $ref: '#/components/responses/Error' }])),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tillpoint API',
      version: '1',
      description:
        'Checkout sessions, payments and webhooks. Amounts are integers in the currency\'s minor unit. ' +
        'Every POST accepts an Idempotency-Key; requests are limited to 100/s per account in live mode and 25/s in test mode.',
    },
    servers: [{ url: options.serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A secret key of the account and mode the call acts in: `Authorization: Bearer sk_test_…`.',
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
        },
      },
      schemas: { Error: jsonSchema(errorEnvelope) },
      responses: {
        Error: {
          description: 'An error: the code says what went wrong; 429 answers carry Retry-After.',
          headers: { 'Retry-After': { description: 'On 429: seconds to wait.', schema: { type: 'integer' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

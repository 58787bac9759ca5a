import type { FastifyInstance } from 'fastify';
import { renderApiReference } from '../api-reference-page';
import { defineRoute } from '../define-route';
import { buildOpenApiDocument, type DocumentedRoute, type OpenApiDocument } from '../openapi';

/** `GET /v1/openapi.json` and `GET /docs`, built once from the routes' contracts; no API key needed. */
export async function apiReference(
  app: FastifyInstance,
  options: { routes: () => DocumentedRoute[]; publicUrl: string },
) {
  let document: OpenApiDocument | null = null;
  let page: string | null = null;
  const current = () => (document ??= buildOpenApiDocument(options.routes(), { serverUrl: options.publicUrl }));

  defineRoute(
    app,
    { method: 'GET', url: '/v1/openapi.json', tag: 'Reference', summary: 'This API described as an OpenAPI 3.1 document' },
    async () => current(),
  );

  app.get('/docs', async (_request, reply) => {
    page ??= renderApiReference(current());
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
      .send(page);
  });
}

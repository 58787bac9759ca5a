import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { acceptedEncoding, compress, type ContentEncoding } from '../compression';
import { defineRoute } from '../define-route';
import { buildOpenApiDocument, type DocumentedRoute, type OpenApiDocument } from '../openapi';
import { openApiDocumentSchema } from '../response-schemas';

/** Redoc's self-contained browser bundle, read from node_modules once and served under our own path. */
const redocBundlePath = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
let redocBundle: Buffer | null = null;
/** The bundle compressed (1.1 MB as is, about 0.3 MB so), once per encoding and kept. */
const redocCompressed = new Map<ContentEncoding, Promise<Buffer>>();

/** Redoc's sidebar credit loads a logo from Redocly's CDN: an empty local image instead, so the page asks nothing of other hosts. */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

/**
 * Only our own origin: the page loads our copy of Redoc and our document, nothing else. Redoc
 * injects its styles at run time (`'unsafe-inline'` styles, no inline scripts) and runs its search
 * index in a worker made from a blob.
 */
export const docsPagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tillpoint API reference</title>
<style>body{margin:0}</style>
</head><body>
<noscript><p>The API reference needs JavaScript. The document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
<redoc spec-url="/v1/openapi.json" hide-download-button="false" required-props-first="true" path-in-middle-panel="true"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body></html>
`;

/**
 * `GET /v1/openapi.json`, built once from the routes' contracts, and `GET /docs`, the reference
 * rendered by Redoc from that document; no API key needed.
 */
export async function apiReference(app: FastifyInstance, options: { routes: () => DocumentedRoute[]; publicUrl: string }) {
  let document: OpenApiDocument | null = null;
  const current = () => (document ??= buildOpenApiDocument(options.routes(), { serverUrl: options.publicUrl }));

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/openapi.json',
      tag: 'Reference',
      summary: 'This API described as an OpenAPI 3.1 document',
      response: openApiDocumentSchema,
    },
    async () => current(),
  );

  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', docsPagePolicy).send(docsPage));

  app.get('/docs/redoc.standalone.js', async (request, reply) => {
    redocBundle ??= Buffer.from(readFileSync(redocBundlePath, 'utf8').replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE));
    const bundle = redocBundle;
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding');
    const encoding = acceptedEncoding(request);
    if (!encoding) return reply.send(bundle);
    let body = redocCompressed.get(encoding);
    if (!body) {
      body = compress(bundle, encoding, 'thorough');
      redocCompressed.set(encoding, body);
      body.catch(() => redocCompressed.delete(encoding));
    }
    return reply.header('content-encoding', encoding).send(await body);
  });
}

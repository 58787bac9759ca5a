import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { useIntegration } from '../support/integration';

/**
 * Every route the server registered, read from Fastify's own route tree (not from our contracts),
 * as `METHOD /path/{param}`.
 */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack[depth] = (depth > 0 ? stack[depth - 1]! : '') + match[2]!;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) {
      routes.push(`${method} ${stack[depth]!.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    }
  }
  return routes;
}

// The document does not depend on the database; one suite is enough.
describe.each(testDatabases.slice(0, 1))('OpenAPI document and reference page ($name)', (database) => {
  const ctx = useIntegration(database);

  it('is served without an API key and validates against the OpenAPI 3.1 schema', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document, so the pass above means something.
    expect((await new Validator().validate({ ...document, paths: { '/x': { get: { responses: 'none' } } } })).valid).toBe(false);
  });

  it('describes every API route the server registered, with auth, error envelope and Idempotency-Key', async () => {
    const document = (await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const routes = registeredRoutes(ctx.h.app.printRoutes({ commonPrefix: false })).filter((r) => / \/(v1|api|ofrep)\//.test(r));
    expect(routes).toContain('DELETE /v1/webhook_endpoints/{id}');
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const documented = Object.entries<Record<string, any>>(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.sort());

    const create = document.paths['/v1/checkout/sessions'].post;
    expect(create.security).toEqual([{ secretKey: [] }]);
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['currency', 'line_items']);
    expect(create.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(create.responses['429']).toEqual({ $ref: '#/components/responses/Error' });
    expect(document.components.securitySchemes.secretKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error.properties.error.required).toEqual(['type', 'code', 'message', 'request_id']);

    const shopper = document.paths['/api/checkout/sessions/{id}/payments'].post;
    expect(shopper.security).toEqual([]);
    expect(shopper.parameters).not.toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(document.paths['/v1/webhook_endpoints/{id}/deliveries/{delivery_id}/resend'].post.parameters.map((p: any) => p.name ?? p.$ref)).toEqual([
      'id',
      'delivery_id',
      '#/components/parameters/IdempotencyKey',
    ]);
  });

  it('renders a readable reference at /docs with no scripts', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).toContain('<code>/v1/webhook_endpoints/{id}/roll_secret</code>');
    expect(res.body).toContain('<code>line_items[][unit_amount]</code>');
    expect(res.body).toContain('idempotency_key_reused');
    expect(res.body).toContain('Idempotency-Key');
  });
});

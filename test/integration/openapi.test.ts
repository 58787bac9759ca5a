import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  checkoutSessionSchema,
  eventSchema,
  paymentSchema,
  refundSchema,
  customerSchema,
  paymentMethodSchema,
  disputeSchema,
  couponSchema,
  promotionCodeSchema,
  taxRateSchema,
  productSchema,
  priceSchema,
  paymentLinkSchema,
  webhookEndpointSchema,
  subscriptionSchema,
  invoiceSchema,
  upcomingInvoiceSchema,
  testClockSchema,
  billingPortalSessionSchema,
} from '../../src/http/response-schemas';
import { docsPagePolicy } from '../../src/http/routes/api-reference';
import { SDK_TYPES_FILE, sdkTypesOf } from '../../scripts/sdk-types';
import { testDatabases } from '../support/databases';
import { createSessionOf, merchantCall, payCall, useIntegration } from '../support/integration';

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

/** Follows a local `$ref` (`#/components/...`) through the document. */
function resolve(document: any, node: any): any {
  while (node?.$ref)
    node = node.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at?.[key], document);
  return node;
}

// The document does not depend on the database; one suite is enough.
describe.each(testDatabases.slice(0, 1))('OpenAPI document and reference page ($name)', (database) => {
  const ctx = useIntegration(database, { checkReplies: true });

  it('is served without an API key and validates against the OpenAPI 3.1 schema', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    // Redoc heads the reference page with "<title> (<version>)": the API's version as its paths name it.
    expect(`${document.info.title} (${document.info.version})`).toBe('Tillpoint API (v1)');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document, so the pass above means something.
    expect((await new Validator().validate({ ...document, paths: { '/x': { get: { responses: 'none' } } } })).valid).toBe(false);
  });

  it('has an operation with a response schema for every status of every /v1 route, and no internal route', async () => {
    const document = (await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const registered = registeredRoutes(ctx.h.app.printRoutes({ commonPrefix: false }));
    const publicRoutes = registered.filter((r) => / \/v1\//.test(r));
    expect(publicRoutes).toContain('DELETE /v1/webhook_endpoints/{id}');
    expect(publicRoutes).toContain('GET /v1/events/stream');
    expect(publicRoutes.length).toBeGreaterThanOrEqual(30);
    const documented = Object.entries<Record<string, any>>(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(publicRoutes.sort());
    // The checkout page's, OFREP's and the dashboard's own routes are registered but not documented.
    expect(registered.some((r) => r.includes(' /api/checkout/'))).toBe(true);
    expect(Object.keys(document.paths).filter((p) => !p.startsWith('/v1/'))).toEqual([]);

    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, where).toBeTruthy();
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => s.startsWith('2')),
          where,
        ).toBe(true);
        expect(statuses, where).toContain('500');
        for (const status of statuses) {
          const response = resolve(document, operation.responses[status]);
          const [media] = Object.values<any>(response.content ?? {});
          const schema = resolve(document, media?.schema);
          expect(schema?.type, `${where} ${status}`).toBe('object');
          if (status.startsWith('2')) expect(Object.keys(schema.properties ?? {}).length, `${where} ${status}`).toBeGreaterThan(0);
          if (!status.startsWith('2')) {
            // An error status names exactly the catalogue codes it may carry.
            const codes: string[] = resolve(document, schema.properties.error).properties.code.enum;
            expect(codes.length, `${where} ${status}`).toBeGreaterThan(0);
          }
        }
        if (method === 'post' && operation.security.length) {
          expect(operation.parameters, where).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
          expect(statuses, where).toContain('409');
        }
      }
    }

    const create = document.paths['/v1/checkout/sessions'].post;
    expect(create.security).toEqual([{ secretKey: [] }]);
    // `currency` and `line_items` are required in payment mode only (the server says which is missing).
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toBeUndefined();
    expect(body.properties.mode.enum).toEqual(['payment', 'setup', 'subscription']);
    expect(create.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(create.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CheckoutSession' });
    expect(create.responses['429']).toEqual({ $ref: '#/components/responses/Error429' });
    expect(document.components.responses.Error429.headers['Retry-After']).toBeDefined();
    expect(document.components.schemas.Error409.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['idempotency_key_reused', 'idempotency_key_in_use', 'refund_exceeds_available']),
    );
    expect(document.components.schemas.Error.properties.error.required).toEqual(['type', 'code', 'message', 'request_id']);
    // Pagination is described where lists are.
    const list = document.paths['/v1/payments'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(['limit', 'starting_after', 'checkout_session']);
    expect(list.parameters[1].description).toMatch(/last object/);
    expect(document.components.schemas.PaymentList.properties.has_more.type).toBe('boolean');
    expect(document.paths['/v1/webhook_endpoints/{id}/deliveries/{delivery_id}/resend'].post.parameters.map((p: any) => p.name ?? p.$ref)).toEqual([
      'id',
      'delivery_id',
      '#/components/parameters/IdempotencyKey',
    ]);
    expect(document.paths['/v1/events/stream'].get.responses['200'].content['text/event-stream'].schema).toEqual({
      $ref: '#/components/schemas/Event',
    });
  });

  it("is what @tillpoint/node's committed types were generated from (else: npm run sdk:types)", async () => {
    const document = (await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const committed = readFileSync(fileURLToPath(SDK_TYPES_FILE), 'utf8');
    const fresh = await sdkTypesOf(document);
    expect(fresh).toContain('"/v1/checkout/sessions/{id}/expire"');
    expect(committed === fresh, 'sdk/node/src/generated/openapi.ts is stale: run `npm run sdk:types` and commit it').toBe(true);
  });

  it('gives examples that its own schemas accept', async () => {
    const document = (await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const named: Record<string, z.ZodType> = {
      CheckoutSession: checkoutSessionSchema,
      Payment: paymentSchema,
      Refund: refundSchema,
      Dispute: disputeSchema,
      Event: eventSchema,
      Coupon: couponSchema,
      PromotionCode: promotionCodeSchema,
      TaxRate: taxRateSchema,
      Customer: customerSchema,
      PaymentMethod: paymentMethodSchema,
      Product: productSchema,
      Price: priceSchema,
      PaymentLink: paymentLinkSchema,
      WebhookEndpoint: webhookEndpointSchema,
      Subscription: subscriptionSchema,
      Invoice: invoiceSchema,
      UpcomingInvoice: upcomingInvoiceSchema,
      TestClock: testClockSchema,
      BillingPortalSession: billingPortalSessionSchema,
    };
    const withExamples = Object.entries<any>(document.components.schemas).filter(([, schema]) => schema.examples);
    expect(withExamples.map(([id]) => id).sort()).toEqual(Object.keys(named).sort());
    for (const [id, schema] of withExamples) {
      for (const example of schema.examples) expect(named[id]!.safeParse(example).success, id).toBe(true);
    }
    // And the check can fail: an example with a field too many is refused.
    expect(paymentSchema.safeParse({ ...document.components.schemas.Payment.examples[0], extra: 1 }).success).toBe(false);
  });

  it('answers with exactly the documented schemas: a session paid and refunded, lists, errors', async () => {
    const session = await createSessionOf(ctx, 5000);
    expect((await payCall(ctx.h, session.id, 'fake-valid-nonce')).statusCode).toBe(200);
    const paid = (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`)).json();
    const refund = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paid.payment, amount: 100 });
    expect(refund.statusCode, refund.body).toBe(200);
    const endpoint = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    const product = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/products', {
      name: 'Beans',
      default_price_data: { currency: 'usd', unit_amount: 1200 },
    });
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/payment_links', { line_items: [{ price: product.json().default_price.id, quantity: 1 }] });
    for (const url of [
      '/v1/checkout/sessions',
      `/v1/payments/${paid.payment}`,
      '/v1/payments',
      '/v1/refunds',
      '/v1/events',
      '/v1/products',
      '/v1/payment_links',
      '/v1/webhook_endpoints',
      `/v1/webhook_endpoints/${endpoint.json().id}/deliveries`,
      '/v1/flags',
      '/v1/payments/pay_nope',
      '/v1/refunds?limit=1000',
    ]) {
      await merchantCall(ctx.h, ctx.key, 'GET', url);
    }
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: paid.payment, amount: 999_999 });
    await merchantCall(ctx.h, 'sk_test_wrong', 'GET', '/v1/payments');
    await merchantCall(ctx.h, ctx.key, 'DELETE', `/v1/webhook_endpoints/${endpoint.json().id}`);
    await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(ctx.h.replyProblems).toEqual([]);
  });

  it('renders the reference at /docs with Redoc served from our own origin, under a strict policy', async () => {
    const res = await ctx.h.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toBe(docsPagePolicy);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/https?:|unsafe-eval/);
    const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' src="/docs/redoc.standalone.js"']);
    expect(res.body).toContain('spec-url="/v1/openapi.json"');
    const bundle = await ctx.h.app.inject({ method: 'GET', url: '/docs/redoc.standalone.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
    expect(bundle.body.length).toBeGreaterThan(100_000);
    expect(bundle.body).not.toContain('https://cdn.redoc.ly');

    // A browser that accepts brotli or gzip gets the same script in about a quarter of the bytes.
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const packed = await ctx.h.app.inject({ method: 'GET', url: '/docs/redoc.standalone.js', headers: { 'accept-encoding': accept } });
      expect(packed.statusCode).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toContain('accept-encoding');
      expect(packed.rawPayload.length).toBeLessThan(bundle.rawPayload.length / 3);
      expect(decode(packed.rawPayload).toString('utf8')).toBe(bundle.body);
    }
  });
});

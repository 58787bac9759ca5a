import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from '../../src/http/server';
import { testDatabases } from '../support/databases';
import { createSession, useIntegration } from '../support/integration';

/**
 * The parts the page loads on demand (promotion code, stepper, custom fields, address form) are in
 * the very first page a server renders after its start, not left as empty boundaries for the
 * browser to fill alone (which it reports as a hydration error). This file runs in its own module
 * scope, so the first page asked for here is the first these parts are rendered in.
 */
describe('the first checkout page after a start', () => {
  const ctx = useIntegration(testDatabases[0]!);
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildHttpServer({ deps: ctx.h.tillpoint.deps, webRoot: path.resolve(import.meta.dirname, '../../dist/web') });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('carries the markup of every on-demand part the session uses', async () => {
    const session = await createSession(ctx, {
      currency: 'eur',
      allow_promotion_codes: true,
      billing_address_collection: 'required',
      line_items: [{ name: 'Beans', unit_amount: 1450, quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 5 } }],
      custom_fields: [{ key: 'gift', label: { type: 'custom', custom: 'Gift message' }, type: 'text', optional: true }],
    });
    const page = await app.inject({ method: 'GET', url: `/c/${session.id}`, headers: { 'accept-encoding': 'identity' } });
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
    const html = page.body;
    expect(html).not.toContain('<!--$!-->');
    expect(html).toContain('Quantity for Beans');
    expect(html).toContain('Gift message');
    expect(html).toContain('Add promotion code');
    // Until they hydrate, the parts' controls are disabled: a choice made on this markup would be
    // undone when React takes it over.
    expect(html).toMatch(/<button(?=[^>]*promo-open)(?=[^>]*disabled="")[^>]*>/);
    expect(html).toMatch(/<input(?=[^>]*name="custom_fields\[gift\]")(?=[^>]*disabled="")[^>]*>/);
    expect(html).toMatch(/<input(?=[^>]*aria-label="Quantity for Beans")(?=[^>]*disabled="")[^>]*>/);
  });
});

import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { expectError, useIntegration } from '../support/integration';

const PATH = '/.well-known/apple-developer-merchantid-domain-association';
const association = '7B227073704964223A2239353130...\n';

describe.each(testDatabases)('Apple Pay domain association ($name)', (database) => {
  describe('configured (APPLE_PAY_DOMAIN_ASSOCIATION)', () => {
    const ctx = useIntegration(database, { applePayDomainAssociation: association });

    it('serves the file as it was given, as plain text, to anyone', async () => {
      const res = await ctx.h.app.inject({ method: 'GET', url: PATH });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(association);
    });
  });

  describe('not configured', () => {
    const ctx = useIntegration(database);

    it('answers 404 resource_missing', async () => {
      expectError(await ctx.h.app.inject({ method: 'GET', url: PATH }), 404, 'resource_missing');
    });
  });
});

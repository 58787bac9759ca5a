import { describe, expect, it } from 'vitest';
import { openServerFlags } from '../../src/adapters/flags/server-flags';
import { testDatabases } from '../support/databases';
import { createSession, merchantCall, useIntegration } from '../support/integration';

/**
 * FLAGS_OFREP_URL: the server reads flags from an OFREP service through OpenFeature. Another
 * Tillpoint's OFREP endpoint stands in for the external service, reached over real HTTP.
 */
describe.each(testDatabases)('flags from an external OFREP service ($name)', (database) => {
  const ctx = useIntegration(database);

  it('reads values, defaults for unknown flags, and follows changes at once', async () => {
    const address = await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
    const flags = openServerFlags({ ofrepUrl: address, evaluate: () => Promise.reject(new Error('the store must not be read')) });
    try {
      const session = await createSession(ctx);
      const scope = { accountId: ctx.accountId, mode: 'test' as const };
      expect(await flags.booleanValue(scope, 'card_enabled', false, session.id)).toBe(true);
      expect(await flags.stringValue(scope, 'three_d_secure', 'off', session.id)).toBe('when_required');

      await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: false });
      expect(await flags.booleanValue(scope, 'card_enabled', true, session.id)).toBe(false);

      // Not found, or a type mismatch: the caller's default.
      expect(await flags.booleanValue(scope, 'no_such_flag', true, session.id)).toBe(true);
      expect(await flags.booleanValue(scope, 'three_d_secure', true, session.id)).toBe(true);
    } finally {
      await flags.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { startHarness } from '../support/harness';
import { merchantCall, rows, useIntegration } from '../support/integration';

describe.each(testDatabases)('request log ($name)', (database) => {
  const ctx = useIntegration(database);

  it('writes every call still waiting in its buffer when the server closes', async () => {
    const server = await startHarness(ctx.db);
    for (let i = 0; i < 3; i++) {
      expect((await merchantCall(server, ctx.key, 'GET', `/v1/payments/pay_missing${i}`)).statusCode).toBe(404);
    }
    await server.app.close();
    // No waiting: closing has written what the buffer held.
    const logged = await rows(ctx.db, 'SELECT path, status, error_code FROM api_requests ORDER BY path');
    expect(logged).toEqual([0, 1, 2].map((i) => ({ path: `/v1/payments/pay_missing${i}`, status: 404, error_code: 'resource_missing' })));
  });
});

import { describe, expect, it } from 'vitest';
import { auditedApiWrites } from '../../src/http/api-audit';
import { testDatabases } from '../support/databases';
import { merchantCall, useIntegration } from '../support/integration';
import { paidPayment } from '../support/payments';

describe.each(testDatabases)('audit log of merchant API writes ($name)', (database) => {
  const ctx = useIntegration(database);

  const auditLines = async () =>
    (
      await ctx.db.query<{ actor_type: string; actor_label: string; action: string; target: string | null; ip: string | null }>(
        'SELECT actor_type, actor_label, action, target, ip FROM audit_log ORDER BY at, id',
      )
    ).rows;

  it('every write route a key can call is audited, so a new one cannot slip past the log', () => {
    // The merchant API's write routes, as the OpenAPI document (generated from the registered routes) lists them.
    return ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' }).then((res) => {
      const paths = res.json().paths as Record<string, Record<string, unknown>>;
      const writes = Object.entries(paths)
        .filter(([path]) => path.startsWith('/v1/'))
        .flatMap(([path, ops]) =>
          Object.keys(ops)
            .filter((method) => method === 'post' || method === 'delete')
            .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
        );
      expect(writes.sort()).toEqual(Object.keys(auditedApiWrites).sort());
    });
  });

  it('a refund by key writes one line naming the key and the refund; a refusal and a replay write none', async () => {
    const payment = await paidPayment(ctx, 5000);
    const before = (await auditLines()).length; // the session's own creation line

    const refund = await ctx.h.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: { authorization: `Bearer ${ctx.key}`, 'idempotency-key': 'refund-1' },
      payload: { payment: payment.id, amount: 1000 },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const lines = await auditLines();
    expect(lines).toHaveLength(before + 1);
    expect(lines.at(-1)).toMatchObject({
      actor_type: 'api_key',
      action: 'refund.create',
      target: refund.json().id,
      actor_label: expect.stringMatching(/^sk_test_…[0-9A-Za-z]{4}$/),
    });
    expect(lines.at(-1)!.ip).toBeTruthy();

    const replay = await ctx.h.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: { authorization: `Bearer ${ctx.key}`, 'idempotency-key': 'refund-1' },
      payload: { payment: payment.id, amount: 1000 },
    });
    expect(replay.body).toBe(refund.body);
    const refused = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/refunds', { payment: payment.id, amount: 999_999 });
    expect(refused.statusCode).toBe(409);
    expect(await auditLines()).toHaveLength(before + 1);
  });
});

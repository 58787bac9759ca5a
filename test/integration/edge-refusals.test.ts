import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_CONTEXT_KEYS } from '../../src/http/routes/ofrep';
import { testDatabases } from '../support/databases';
import { bearer, createSession, expectError, merchantCall, useIntegration } from '../support/integration';
import { paidPayment } from '../support/payments';

/**
 * Refusals at the edge that some routes lacked: OFREP took unknown fields and any number of context
 * keys, the checkout page any query, `/v1` answers carried no `Cache-Control`, and a body far over
 * the limit could meet a closed connection (EPIPE) instead of its 413 (docs/api.md).
 */
describe.each(testDatabases)('edge refusals ($name)', (database) => {
  const ctx = useIntegration(database);
  const ofrep = (path: string, payload: string) =>
    ctx.h.app.inject({ method: 'POST', url: `/ofrep/v1/evaluate/flags${path}`, headers: { 'content-type': 'application/json' }, payload });

  it('OFREP refuses unknown fields and a context of too many keys, like every other endpoint', async () => {
    const session = await createSession(ctx);
    for (const path of ['', '/card_enabled']) {
      expectError(await ofrep(path, JSON.stringify({ context: { targetingKey: session.id }, zz_unknown: 1 })), 400, 'parameter_unknown', {
        param: 'zz_unknown',
      });
      const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 1]));
      expectError(await ofrep(path, JSON.stringify({ context: { targetingKey: session.id, ...wide } })), 400, 'parameter_invalid', { param: 'context' });
      const allowed = Object.fromEntries(Array.from({ length: MAX_CONTEXT_KEYS - 1 }, (_, i) => [`k${i}`, 1]));
      const fine = await ofrep(path, JSON.stringify({ context: { targetingKey: session.id, ...allowed } }));
      expect(fine.statusCode, fine.body).toBeLessThan(400 + (path ? 5 : 0));
    }
  });

  it('the checkout page refuses a query parameter it does not take, and takes its embedded client secret', async () => {
    const session = await createSession(ctx);
    for (const page of [`/c/${session.id}`, `/c/${session.id}/done`]) {
      expectError(await ctx.h.app.inject({ method: 'GET', url: `${page}?zz_unknown=1` }), 400, 'parameter_unknown', { param: 'zz_unknown' });
    }
    // Without a built page the harness answers 503, which shows the query passed.
    const embedded = await ctx.h.app.inject({ method: 'GET', url: `/c/${session.id}?embedded=${session.id}_secret_abc` });
    expect(embedded.statusCode).not.toBe(400);
  });

  it('every /v1 answer says Cache-Control: no-store: objects, lists, errors, replays', async () => {
    const session = await createSession(ctx);
    const payment = await paidPayment(ctx, 5000, 'manual');
    const answers = [
      await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`),
      await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments'),
      await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${payment.id}`),
      await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments/pay_nosuchpayment'),
      await ctx.h.app.inject({ method: 'GET', url: '/v1/payments' }),
      await ctx.h.app.inject({ method: 'GET', url: '/v1/nowhere', headers: bearer(ctx.key) }),
      await ctx.h.app.inject({ method: 'GET', url: '/v1/payments/%ff', headers: bearer(ctx.key) }),
    ];
    for (const key of ['replay-1', 'replay-1']) {
      answers.push(
        await ctx.h.app.inject({ method: 'POST', url: `/v1/checkout/sessions/${session.id}/expire`, headers: { ...bearer(ctx.key), 'idempotency-key': key } }),
      );
    }
    expect(answers.at(-1)!.headers['idempotent-replayed']).toBe('true');
    for (const res of answers) expect(res.headers['cache-control'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe('no-store');
  });

  it('a 6 MB body gets a readable 413 over real HTTP, the upload finished and not cut off (EPIPE)', async () => {
    await ctx.h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.h.app.server.address() as AddressInfo;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const chunks = 96; // 6 MB
    const upload = (framing: 'content-length' | 'chunked') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/checkout/sessions',
            agent: false,
            headers: {
              ...bearer(ctx.key),
              'content-type': 'application/json',
              ...(framing === 'content-length' ? { 'content-length': chunk.length * chunks } : { 'transfer-encoding': 'chunked' }),
            },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (part) => (body += part));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        request.on('error', reject);
        // Written as a browser on a slow link would: a piece at a time, while the answer may already have come.
        let sent = 0;
        const next = () => {
          if (sent === chunks) return request.end();
          sent++;
          if (request.write(chunk)) setTimeout(next, 2);
          else request.once('drain', () => setTimeout(next, 2));
        };
        next();
      });
    for (const framing of ['content-length', 'chunked', 'content-length'] as const) {
      const { status, body } = await upload(framing);
      expect(status, framing).toBe(413);
      expect(JSON.parse(body).error.code).toBe('request_too_large');
    }
    // The server still answers on, and a body over the limit sent in one piece gets its 413 as before.
    expect((await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments')).statusCode).toBe(200);
    const whole = await ctx.h.app.inject({
      method: 'POST',
      url: '/v1/checkout/sessions',
      headers: { ...bearer(ctx.key), 'content-type': 'application/json' },
      payload: `{"a":"${'x'.repeat(300 * 1024)}"}`,
    });
    expectError(whole, 413, 'request_too_large');
  }, 60_000);
});

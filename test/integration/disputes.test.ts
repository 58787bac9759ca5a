import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { expectError, merchantCall, rows, useIntegration } from '../support/integration';
import { dumpBusinessData, paidPayment } from '../support/payments';
import { disputedPayment, runJob } from '../support/disputes';

/** A tiny valid PNG (its signature and an IHDR chunk), and a PDF header: real types by their bytes. */
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');

describe.each(testDatabases)('disputes ($name)', (database) => {
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) =>
    ctx.h.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${ctx.key}`, ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const eventTypesOf = async (disputeId: string) =>
    (await rows(ctx.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [disputeId])).map((e) => e.type);

  it('opens a dispute some seconds after a capture with the dispute test card, with its event and webhook', async () => {
    await call('POST', '/v1/webhook_endpoints', { url: 'https://shop.example/hooks', enabled_events: ['dispute.created'] });
    const { paymentId, dispute } = await disputedPayment(ctx, 5000);
    expect(dispute).toMatchObject({
      object: 'dispute',
      livemode: false,
      payment: paymentId,
      amount: 5000,
      currency: 'usd',
      reason: 'fraud',
      status: 'needs_response',
      evidence: [],
      processor: 'test',
      submitted_at: null,
      closed_at: null,
    });
    expect(dispute.id).toMatch(/^dp_/);
    // Seven days to answer from when the bank opened it.
    expect(dispute.reply_by - dispute.created).toBeGreaterThanOrEqual(7 * 86400 - 10);
    expect((await call('GET', `/v1/disputes/${dispute.id}`)).json()).toEqual(dispute);
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created']);
    const [event] = await rows(ctx.db, `SELECT id, data FROM events WHERE type = 'dispute.created'`);
    expect(event!.data).toEqual(dispute);
    const deliveries = await rows(ctx.db, 'SELECT event_id FROM webhook_deliveries');
    expect(deliveries.map((d) => d.event_id)).toEqual([event!.id]);

    // Running the job again finds the same dispute: nothing new.
    await runJob(ctx, 'test-processor-disputes');
    expect(await rows(ctx.db, 'SELECT id FROM disputes')).toHaveLength(1);
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created']);
  });

  it('no dispute for an ordinary card, nor before the bank opens it', async () => {
    await paidPayment(ctx, 5000);
    ctx.h.clock.advance(60_000);
    await runJob(ctx, 'test-processor-disputes');
    expect(await rows(ctx.db, 'SELECT id FROM disputes')).toEqual([]);
  });

  it('full life: evidence (text and files) → submit → won with compelling_evidence, each step audited with its event', async () => {
    const { dispute } = await disputedPayment(ctx);
    const text = await call('POST', `/v1/disputes/${dispute.id}`, { text: 'compelling_evidence', category: 'GENERAL' });
    expect(text.statusCode, text.body).toBe(200);
    expect(text.json().evidence).toMatchObject([{ kind: 'text', text: 'compelling_evidence', category: 'GENERAL', file_name: null }]);
    ctx.h.clock.advance(1000);
    const file = await call('POST', `/v1/disputes/${dispute.id}`, { file: { name: 'receipt.pdf', type: 'application/pdf', data: pdf } });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.json().evidence[1]).toMatchObject({
      kind: 'file',
      file_name: 'receipt.pdf',
      content_type: 'application/pdf',
      size: Buffer.from(pdf, 'base64').length,
      text: null,
    });
    expect(file.json().status).toBe('needs_response');
    ctx.h.clock.advance(1000);

    const submitted = await call('POST', `/v1/disputes/${dispute.id}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json()).toMatchObject({ status: 'under_review', closed_at: null });
    expect(submitted.json().submitted_at).toEqual(expect.any(Number));
    // Submitting again answers the dispute as it is.
    expect((await call('POST', `/v1/disputes/${dispute.id}/submit`)).json()).toEqual(submitted.json());

    ctx.h.clock.advance(6000);
    await runJob(ctx, 'test-processor-disputes');
    const won = (await call('GET', `/v1/disputes/${dispute.id}`)).json();
    expect(won).toMatchObject({ status: 'won', closed_at: expect.any(Number) });
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created', 'dispute.updated', 'dispute.updated', 'dispute.updated', 'dispute.closed']);

    const audit = await rows(ctx.db, `SELECT actor_type, action, target FROM audit_log WHERE action LIKE 'dispute.%' ORDER BY at, id`);
    expect(audit).toEqual([
      { actor_type: 'api_key', action: 'dispute.add_evidence', target: dispute.id },
      { actor_type: 'api_key', action: 'dispute.add_evidence', target: dispute.id },
      { actor_type: 'api_key', action: 'dispute.submit', target: dispute.id },
    ]);
    // Only the file's name, type and size are kept, never its bytes.
    expect(JSON.stringify(await rows(ctx.db, 'SELECT * FROM dispute_evidence'))).not.toContain('PDF-1.4');

    // A closed dispute takes nothing more.
    const before = await dumpBusinessData(ctx.db);
    expectError(await call('POST', `/v1/disputes/${dispute.id}`, { text: 'more' }), 409, 'dispute_not_open');
    expectError(await call('POST', `/v1/disputes/${dispute.id}/accept`), 409, 'dispute_not_open');
    expectError(await call('POST', `/v1/disputes/${dispute.id}/submit`), 409, 'dispute_not_open');
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
  });

  it('losing_evidence loses the dispute once submitted', async () => {
    const { dispute } = await disputedPayment(ctx);
    expect((await call('POST', `/v1/disputes/${dispute.id}`, { text: 'losing_evidence' })).statusCode).toBe(200);
    expect((await call('POST', `/v1/disputes/${dispute.id}/submit`)).json().status).toBe('under_review');
    ctx.h.clock.advance(6000);
    await runJob(ctx, 'test-processor-disputes');
    expect((await call('GET', `/v1/disputes/${dispute.id}`)).json()).toMatchObject({ status: 'lost' });
    expect((await eventTypesOf(dispute.id)).at(-1)).toBe('dispute.closed');
  });

  it('accept closes the dispute as accepted; a second accept answers it unchanged; the audit has one line', async () => {
    const { dispute } = await disputedPayment(ctx);
    const accepted = await call('POST', `/v1/disputes/${dispute.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', closed_at: expect.any(Number) });
    expect((await call('POST', `/v1/disputes/${dispute.id}/accept`)).json()).toEqual(accepted.json());
    expect(await eventTypesOf(dispute.id)).toEqual(['dispute.created', 'dispute.closed']);
    expect(await rows(ctx.db, `SELECT action FROM audit_log WHERE action LIKE 'dispute.%'`)).toEqual([{ action: 'dispute.accept' }]);
    expectError(await call('POST', `/v1/disputes/${dispute.id}/submit`), 409, 'dispute_not_open');
    // The processor keeps its own refusal: accepting again there is refused too.
    ctx.h.clock.advance(6000);
    await runJob(ctx, 'test-processor-disputes');
    expect((await call('GET', `/v1/disputes/${dispute.id}`)).json().status).toBe('accepted');
  });

  it('refuses files by type and size, empty or unknown evidence, and unknown disputes, changing nothing', async () => {
    const { dispute } = await disputedPayment(ctx);
    const before = await dumpBusinessData(ctx.db);
    const url = `/v1/disputes/${dispute.id}`;
    expectError(await call('POST', url, { file: { name: 'a.gif', type: 'image/gif', data: png } }), 400, 'file_type_not_allowed', { param: 'file[type]' });
    // Declared PNG, but its bytes are a PDF.
    expectError(await call('POST', url, { file: { name: 'a.png', type: 'image/png', data: pdf } }), 400, 'file_type_not_allowed', { param: 'file[data]' });
    const big = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(4 * 1024 * 1024)]).toString('base64');
    expectError(await call('POST', url, { file: { name: 'big.pdf', type: 'application/pdf', data: big } }), 400, 'file_too_large', { param: 'file[data]' });
    expectError(await call('POST', url, { file: { name: 'x.pdf', type: 'application/pdf', data: 'not base64!' } }), 400, 'parameter_invalid', {
      param: 'file[data]',
    });
    expectError(await call('POST', url, {}), 400, 'parameter_missing', { param: 'text' });
    expectError(await call('POST', url, { text: '   ' }), 400, 'parameter_invalid', { param: 'text' });
    expectError(await call('POST', url, { text: 'x', colour: 'red' }), 400, 'parameter_unknown', { param: 'colour' });
    expectError(await call('POST', '/v1/disputes/dp_nosuchdispute', { text: 'x' }), 404, 'resource_missing', { param: 'id' });
    expectError(await call('POST', '/v1/disputes/dp_nosuchdispute/accept'), 404, 'resource_missing', { param: 'id' });
    expectError(await call('GET', '/v1/disputes?status=open'), 400, 'parameter_invalid', { param: 'status' });
    const other = await ctx.h.newAccountKey('Other Shop');
    expectError(await merchantCall(ctx.h, other, 'GET', url), 404, 'resource_missing', { param: 'id' });
    expectError(await merchantCall(ctx.h, other, 'POST', `${url}/accept`), 404, 'resource_missing', { param: 'id' });
    expect(await dumpBusinessData(ctx.db)).toEqual({ ...before, accounts: expect.any(Array) });
    // A PNG of the right type goes through.
    expect((await call('POST', url, { file: { name: 'shot.png', type: 'image/png', data: png } })).statusCode).toBe(200);
  });

  it('takes an evidence body above the 256 KB limit of other routes; one above its own limit is 413 naming that limit, changing nothing', async () => {
    const { dispute } = await disputedPayment(ctx);
    const url = `/v1/disputes/${dispute.id}`;
    // A 1 MB file: its body (1.3 MB in base64) is over the server's 256 KB, within the evidence limit.
    const oneMegabyte = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024)]).toString('base64');
    const taken = await call('POST', url, { file: { name: 'scan.pdf', type: 'application/pdf', data: oneMegabyte } });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().evidence).toMatchObject([{ kind: 'file', file_name: 'scan.pdf', size: 1024 * 1024 + 9 }]);

    const before = await dumpBusinessData(ctx.db);
    // 4.3 MB in base64 is 5.7 MB: over the 5.4 MB the route takes.
    const huge = Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(4.3 * 1024 * 1024)]).toString('base64');
    const error = expectError(await call('POST', url, { file: { name: 'huge.pdf', type: 'application/pdf', data: huge } }), 413, 'request_too_large');
    expect(error.message).toBe(
      'The request body is larger than the limit of 5.4 MB (5657942 bytes): an evidence file may be at most 4 MB (sent base64, a third larger)',
    );
    expect(error.message).not.toContain('256 KB');
    expect(await dumpBusinessData(ctx.db)).toEqual(before);
    // Other routes keep the server's limit and say so.
    const other = expectError(await call('POST', `${url}/accept`, { note: 'x'.repeat(300 * 1024) }), 413, 'request_too_large');
    expect(other.message).toBe('The request body is larger than the limit of 256 KB (262144 bytes)');
  });

  it('an Idempotency-Key replays the first answer and records one evidence line', async () => {
    const { dispute } = await disputedPayment(ctx);
    const headers = { 'idempotency-key': 'evidence-1' };
    const first = await call('POST', `/v1/disputes/${dispute.id}`, { text: 'Signed for on delivery' }, headers);
    const again = await call('POST', `/v1/disputes/${dispute.id}`, { text: 'Signed for on delivery' }, headers);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await rows(ctx.db, 'SELECT id FROM dispute_evidence')).toHaveLength(1);
    expectError(await call('POST', `/v1/disputes/${dispute.id}`, { text: 'Other words' }, headers), 409, 'idempotency_key_reused');
  });

  it('lists newest first, by payment and by status, and pages', async () => {
    const first = await disputedPayment(ctx, 1000);
    const second = await disputedPayment(ctx, 2000);
    await call('POST', `/v1/disputes/${first.dispute.id}/accept`);
    const all = (await call('GET', '/v1/disputes')).json();
    expect(all.data.map((d: { id: string }) => d.id)).toEqual([second.dispute.id, first.dispute.id]);
    expect((await call('GET', '/v1/disputes?status=accepted')).json().data.map((d: { id: string }) => d.id)).toEqual([first.dispute.id]);
    const page = (await call('GET', '/v1/disputes?limit=1')).json();
    expect(page).toMatchObject({ has_more: true, data: [{ id: second.dispute.id }] });
    const next = (await call('GET', `/v1/disputes?limit=1&starting_after=${second.dispute.id}`)).json();
    expect(next).toMatchObject({ has_more: false, data: [{ id: first.dispute.id }] });
  });
});

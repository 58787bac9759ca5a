import { describe, expect, it } from 'vitest';
import { assignVariant } from '../../src/domain/flags/experiment-assignment';
import { testDatabases } from '../support/databases';
import { createSession, expectError, merchantCall, payCall, rows, tokenize, useIntegration } from '../support/integration';

describe.each(testDatabases)('flags, OFREP and experiments ($name)', (database) => {
  const ctx = useIntegration(database);

  const ofrep = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    ctx.h.app.inject({ method: 'POST', url: `/ofrep/v1/evaluate/flags${path}`, payload: body as object, headers });

  it('lists the built-in kill switches with their defaults, and a flag change shows in the next evaluation', async () => {
    const list = await merchantCall(ctx.h, ctx.key, 'GET', '/v1/flags');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((f: any) => [f.key, f.value, f.built_in])).toEqual([
      ['card_enabled', true, true],
      ['google_pay_enabled', true, true],
      ['apple_pay_enabled', true, true],
      ['paypal_enabled', true, true],
      ['venmo_enabled', true, true],
      ['three_d_secure', 'when_required', true],
    ]);

    const session = await createSession(ctx);
    const before = await ofrep('/card_enabled', { context: { targetingKey: session.id } });
    expect(before.json()).toEqual({ key: 'card_enabled', value: true, reason: 'DEFAULT', variant: 'on', metadata: {}, cacheable: true });

    const off = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ key: 'card_enabled', value: false, default: true });
    const after = await ofrep('/card_enabled', { context: { targetingKey: session.id } });
    expect(after.json()).toMatchObject({ key: 'card_enabled', value: false, reason: 'STATIC', variant: 'off' });

    // Another account is untouched.
    const otherKey = await ctx.h.newAccountKey('Other Shop');
    const other = await merchantCall(ctx.h, otherKey, 'GET', '/v1/flags/card_enabled');
    expect(other.json().value).toBe(true);
  });

  it('card_enabled off refuses card payments on the server too, and on again they go through', async () => {
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id);
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: false });
    expectError(await payCall(ctx.h, session.id, nonce), 400, 'parameter_invalid', { param: 'payment_method_type' });
    expect(await rows(ctx.db, 'SELECT id FROM payments')).toHaveLength(0);

    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: true });
    const paid = await payCall(ctx.h, session.id, nonce);
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('validates flag writes and leaves flags unchanged on bad input', async () => {
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: 'no' }), 400, 'parameter_invalid', { param: 'value' });
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/three_d_secure', { value: 'sometimes' }), 400, 'parameter_invalid', { param: 'value' });
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/card_enabled', { value: false, colour: 1 }), 400, 'parameter_unknown', {
      param: 'colour',
    });
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'card_enabled', value: false }), 400, 'parameter_invalid', { param: 'key' });
    expectError(await merchantCall(ctx.h, ctx.key, 'GET', '/v1/flags/nope'), 404, 'resource_missing', { param: 'id' });
    expect(await rows(ctx.db, 'SELECT * FROM flags')).toHaveLength(0);

    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'new_receipt', value: false, description: 'Try the new receipt' });
    expect(created.statusCode, created.body).toBe(200);
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'new_receipt', value: true }), 400, 'parameter_invalid', { param: 'key' });
    expect((await merchantCall(ctx.h, ctx.key, 'GET', '/v1/flags/new_receipt')).json()).toMatchObject({ value: false, built_in: false });
    expectError(await ctx.h.app.inject({ method: 'GET', url: '/v1/flags' }), 401, 'api_key_missing');
  });

  it('answers OFREP bulk and single evaluations in the protocol’s shapes', async () => {
    const session = await createSession(ctx);
    const bulk = await ofrep('', { context: { targetingKey: session.id } });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.headers.etag).toMatch(/^".+"$/);
    const body = bulk.json();
    expect(Object.keys(body)).toEqual(['flags']);
    for (const flag of body.flags) {
      expect(Object.keys(flag).sort()).toEqual(['key', 'metadata', 'reason', 'value', 'variant']);
      expect(typeof flag.variant).toBe('string');
    }
    expect(body.flags.map((f: any) => f.key)).toEqual(
      expect.arrayContaining(['card_enabled', 'google_pay_enabled', 'three_d_secure', 'checkout_layout', 'pay_button_wording']),
    );

    // Unchanged flags: 304 to a provider that polls with If-None-Match.
    const again = await ofrep('', { context: { targetingKey: session.id } }, { 'if-none-match': String(bulk.headers.etag) });
    expect(again.statusCode).toBe(304);

    const missing = await ofrep('/no_such_flag', { context: { targetingKey: session.id } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ key: 'no_such_flag', errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.any(String) });

    const badContext = await ofrep('/card_enabled', { context: 'cs_1' });
    expect(badContext.statusCode).toBe(400);
    expect(badContext.json()).toEqual({ key: 'card_enabled', errorCode: 'INVALID_CONTEXT', errorDetails: expect.any(String) });

    const unknownSession = await ofrep('', { context: { targetingKey: 'cs_doesnotexist' } });
    expect(unknownSession.statusCode).toBe(400);
    expect(unknownSession.json()).toEqual({ errorCode: 'INVALID_CONTEXT', errorDetails: expect.any(String) });

    const noKey = await ofrep('', { context: {} });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().errorCode).toBe('TARGETING_KEY_MISSING');

    // A secret key of the account reads the same flags without a session.
    const withKey = await ofrep('/three_d_secure', {}, { authorization: `Bearer ${ctx.key}` });
    expect(withKey.json()).toMatchObject({ key: 'three_d_secure', value: 'when_required', reason: 'DEFAULT' });
    const badKey = await ofrep('/three_d_secure', {}, { authorization: 'Bearer sk_test_nope' });
    expect(badKey.statusCode).toBe(401);
  });

  it('reads flags and running experiments for evaluation in one statement, as the two lists give them', async () => {
    for (const [key, value] of [
      ['new_receipt', false],
      ['banner_text', 'Free shipping'],
      ['max_items', 12.5],
    ] as const) {
      expect((await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key, value, description: `about ${key}` })).statusCode).toBe(200);
    }
    for (const [key, variants] of [
      ['pay_button_wording', ['pay', 'pay_now']],
      ['checkout_layout', ['card_first', 'wallet_first']],
    ] as const) {
      const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key,
        variants: variants.map((v, i) => ({ key: v, weight: i + 1 })),
        baseline_conversion_rate: 0.125,
        minimum_detectable_effect: 0.03,
        status: 'running',
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    // A draft is not running: left out.
    const draft = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
      key: 'pay_button_wording',
      variants: [
        { key: 'pay', weight: 1 },
        { key: 'complete_purchase', weight: 1 },
      ],
      planned_sample_size: 10,
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const scope = { accountId: ctx.accountId, mode: 'test' as const };
    const { deps } = ctx.h.tillpoint;
    const [together, stored, running] = await deps.store.read((r) =>
      Promise.all([r.flags.listWithRunningExperiments(scope), r.flags.list(scope), r.experiments.running(scope)]),
    );
    expect(stored.map((f) => f.value)).toEqual(['Free shipping', 12.5, false]);
    expect(running.map((x) => x.key)).toEqual(['checkout_layout', 'pay_button_wording']);
    expect(together).toEqual({ stored, running });
  });

  it('runs an experiment: sticky SPLIT variants, idempotent exposures, conversions on completion, results', async () => {
    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key: 'checkout_layout',
        variants: [
          { key: 'sideways', weight: 1 },
          { key: 'card_first', weight: 1 },
        ],
        planned_sample_size: 10,
      }),
      400,
      'parameter_invalid',
      { param: 'variants[0][key]' },
    );
    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key: 'checkout_layout',
        variants: [
          { key: 'wallet_first', weight: 1 },
          { key: 'card_first', weight: 1 },
        ],
      }),
      400,
      'parameter_missing',
      { param: 'planned_sample_size' },
    );
    expect(await rows(ctx.db, 'SELECT * FROM experiments')).toHaveLength(0);

    const created = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
      key: 'pay_button_wording',
      variants: [
        { key: 'pay', weight: 1 },
        { key: 'pay_now', weight: 1 },
      ],
      baseline_conversion_rate: 0.1,
      minimum_detectable_effect: 0.02,
      status: 'running',
    });
    expect(created.statusCode, created.body).toBe(200);
    const experiment = created.json();
    expect(experiment).toMatchObject({ object: 'experiment', status: 'running', control: 'pay', planned_sample_size: 3841 });
    expect(experiment.id).toMatch(/^exp_/);

    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key: 'pay_button_wording',
        variants: [
          { key: 'pay', weight: 1 },
          { key: 'complete_purchase', weight: 1 },
        ],
        planned_sample_size: 5,
        status: 'running',
      }),
      400,
      'parameter_invalid',
      { param: 'status' },
    );
    expectError(
      await merchantCall(ctx.h, ctx.key, 'POST', `/v1/experiments/${experiment.id}`, {
        variants: [
          { key: 'pay', weight: 9 },
          { key: 'pay_now', weight: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'variants' },
    );

    const sessions = [await createSession(ctx), await createSession(ctx), await createSession(ctx)];
    for (const session of sessions) {
      const evaluation = (await ofrep('/pay_button_wording', { context: { targetingKey: session.id } })).json();
      const expected = assignVariant(experiment.id, session.id, [
        { key: 'pay', weight: 1 },
        { key: 'pay_now', weight: 1 },
      ]);
      expect(evaluation).toEqual({
        key: 'pay_button_wording',
        value: expected,
        variant: expected,
        reason: 'SPLIT',
        metadata: { experiment: experiment.id },
        cacheable: false,
      });
      const first = await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/exposures`, payload: { key: 'pay_button_wording' } });
      expect(first.json()).toEqual({ object: 'exposure', experiment: experiment.id, variant: expected, recorded: true });
      const reload = await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/exposures`, payload: { key: 'pay_button_wording' } });
      expect(reload.json().recorded).toBe(false);
    }
    // Two of the three pay; one pays twice over (a second attempt is refused) and counts once.
    for (const session of sessions.slice(0, 2)) {
      const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
      expect(paid.statusCode, paid.body).toBe(200);
    }
    expect((await payCall(ctx.h, sessions[0]!.id, 'fake-valid-nonce')).statusCode).toBe(409);

    const results = (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/experiments/${experiment.id}/results`)).json();
    const byVariant = Object.fromEntries(results.variants.map((v: any) => [v.variant, v]));
    const assigned = sessions.map((s) => assignVariant(experiment.id, s.id, experiment.variants));
    for (const variant of ['pay', 'pay_now']) {
      expect(byVariant[variant].exposed).toBe(assigned.filter((a) => a === variant).length);
      expect(byVariant[variant].conversions).toBe(assigned.slice(0, 2).filter((a) => a === variant).length);
    }
    expect(byVariant.pay.difference_to_control).toBeNull();
    expect(results.verdict).toMatchObject({ status: 'collecting', winner: null });

    // Stopped: the page falls back to the default and exposures are no longer recorded.
    const stopped = await merchantCall(ctx.h, ctx.key, 'POST', `/v1/experiments/${experiment.id}`, { status: 'stopped' });
    expect(stopped.json()).toMatchObject({ status: 'stopped', stopped: expect.any(Number) });
    const late = await createSession(ctx);
    expect((await ofrep('/pay_button_wording', { context: { targetingKey: late.id } })).json()).toMatchObject({ value: 'pay', reason: 'DEFAULT' });
    const lateExposure = await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${late.id}/exposures`, payload: { key: 'pay_button_wording' } });
    expect(lateExposure.json()).toMatchObject({ recorded: false, experiment: null });
    expectError(await merchantCall(ctx.h, ctx.key, 'POST', `/v1/experiments/${experiment.id}`, { status: 'running' }), 400, 'parameter_invalid', {
      param: 'status',
    });

    const list = (await merchantCall(ctx.h, ctx.key, 'GET', '/v1/experiments?limit=1')).json();
    expect(list).toMatchObject({ object: 'list', has_more: false, data: [{ id: experiment.id }] });
    const otherKey = await ctx.h.newAccountKey('Other Shop');
    expectError(await merchantCall(ctx.h, otherKey, 'GET', `/v1/experiments/${experiment.id}/results`), 404, 'resource_missing', { param: 'id' });
  });
});

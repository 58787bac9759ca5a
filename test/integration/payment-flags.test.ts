import { afterEach, describe, expect, it } from 'vitest';
import { payCheckoutSession } from '../../src/domain/payments/use-cases/pay-checkout-session';
import type { AuthorizeRequest, PaymentProcessor, ProcessorDirectory } from '../../src/domain/processors/ports';
import type { Deps } from '../../src/domain/deps';
import { builtInFlagKeys } from '../../src/domain/flags/flag-evaluation';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';
import { testDatabases } from '../support/databases';
import {
  createSession,
  merchantCall,
  recordPayButtonExposure,
  runPayButtonExperiment,
  testCard,
  tokenize,
  useIntegration,
  type IntegrationContext,
} from '../support/integration';

/**
 * Paying reads its account's flags (kill switches, 3-D Secure) and running experiments at payment
 * time, once, through the flags reader (`FlagReader.read`): the flags as stored then, whichever
 * instance changed them. Flags are changed through one instance and paid through another. (The
 * statements paying sends are bench:pay's budget.)
 */
describe.each(testDatabases)('paying reads its flags at payment time ($name)', (database) => {
  const ctx = useIntegration(database);
  let other: Tillpoint | null = null;
  afterEach(async () => {
    // The second instance shares the suite's database: it closes what it opened, not the database.
    await other?.close();
    other = null;
  });

  /** A second instance over the same database. */
  async function secondInstance(c: IntegrationContext): Promise<{ deps: Deps; authorized: AuthorizeRequest[] }> {
    other = await openTillpoint({ db: { ...c.db, close: async () => undefined }, publicUrl: 'http://localhost' });
    // What the processor is asked, as it is asked.
    const authorized: AuthorizeRequest[] = [];
    const directory = other.deps.processors;
    const processors: ProcessorDirectory = {
      forScope: async (scope) => {
        const processor = await directory.forScope(scope);
        return Object.assign(Object.create(processor) as PaymentProcessor, {
          authorize: (request: AuthorizeRequest) => {
            authorized.push(request);
            return processor.authorize(request);
          },
        });
      },
    };
    return { deps: { ...other.deps, processors }, authorized };
  }

  const setFlag = async (c: IntegrationContext, key: string, value: unknown) => {
    const res = await merchantCall(c.h, c.key, 'POST', `/v1/flags/${key}`, { value });
    expect(res.statusCode, res.body).toBe(200);
  };

  const pay = (deps: Deps, sessionId: string, nonce: string) =>
    payCheckoutSession(deps, { sessionId, paymentMethodType: 'card', nonce, email: 'shopper@example.com' });

  it('a kill switch thrown on another instance after the page loaded refuses the next payment, and nothing is written', async () => {
    const { deps, authorized } = await secondInstance(ctx);
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id);
    await setFlag(ctx, 'card_enabled', false);
    await expect(pay(deps, session.id, nonce)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment_method_type' });
    expect(authorized).toEqual([]);
    expect((await ctx.db.query('SELECT id FROM payments WHERE checkout_session_id = $1', [session.id])).rows).toEqual([]);

    await setFlag(ctx, 'card_enabled', true);
    const paid = await pay(deps, session.id, nonce);
    expect(paid.payment?.status).toBe('succeeded');
  });

  it('pays with the 3-D Secure flag as stored at payment time, set on another instance', async () => {
    const { deps, authorized } = await secondInstance(ctx);
    // A running experiment on a page surface: converted when the payment wins.
    await runPayButtonExperiment(ctx.h, ctx.key);
    const session = await createSession(ctx);
    await recordPayButtonExposure(ctx.h, session.id);
    // A 3-D Secure test card, verified as the page verifies it: `always` requires the liability shift.
    const tokenized = await tokenize(ctx.h, session.id, { ...testCard, number: '4000000000002701' });
    const verified = await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/three-d-secure`, payload: { nonce: tokenized } });
    expect(verified.statusCode, verified.body).toBe(200);
    const nonce: string = verified.json().nonce;
    await setFlag(ctx, 'three_d_secure', 'always');
    const paid = await pay(deps, session.id, nonce);
    expect(paid.payment?.status).toBe('succeeded');
    expect(authorized.map((r) => r.threeDSecureMode)).toEqual(['always']);
    const converted = await ctx.db.query('SELECT converted_at FROM experiment_exposures WHERE checkout_session_id = $1', [session.id]);
    expect(converted.rows.map((r) => r.converted_at !== null)).toEqual([true]);
  });

  it('reads the built-in flags once, not the custom ones; any other key is read afresh', async () => {
    await setFlag(ctx, 'card_enabled', false);
    await setFlag(ctx, 'three_d_secure', 'off');
    // A merchant's own flags, which paying never evaluates: many of them must not slow paying down.
    for (const key of ['gift_wrap', 'banner', 'loyalty_tier']) {
      const custom = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key, value: `${key}-on` });
      expect(custom.statusCode, custom.body).toBe(200);
    }
    for (const key of ['checkout_layout', 'pay_button_wording']) {
      const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key,
        variants:
          key === 'checkout_layout'
            ? [
                { key: 'wallet_first', weight: 1 },
                { key: 'card_first', weight: 3 },
              ]
            : [
                { key: 'pay', weight: 1 },
                { key: 'pay_now', weight: 1 },
              ],
        planned_sample_size: 10,
        status: 'running',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const session = await createSession(ctx);
    const scope = { accountId: ctx.accountId, mode: 'test' as const };
    const everything = await ctx.h.tillpoint.deps.store.read((r) => r.flags.listWithRunningExperiments(scope));
    const state = await ctx.h.tillpoint.deps.store.read((r) => r.flags.listWithRunningExperiments(scope, builtInFlagKeys));
    // The built-in flags as evaluation reads them all, in whichever order; no custom flag, and no
    // experiment (experiments run on page surfaces, which paying does not evaluate).
    const byKey = <T extends { key: string }>(list: T[]) => [...list].sort((a, b) => a.key.localeCompare(b.key));
    expect(byKey(state.stored)).toEqual(byKey(everything.stored.filter((f) => (builtInFlagKeys as string[]).includes(f.key))));
    expect(state.stored.map((f) => f.key).sort()).toEqual(['card_enabled', 'three_d_secure']);
    expect(state.running).toEqual([]);
    expect(state.keys).toEqual(builtInFlagKeys);

    // A reader over that read answers the built-in flags from it, and reads any other key afresh.
    const reader = await ctx.h.tillpoint.deps.flags.read!(scope, builtInFlagKeys);
    expect(await reader.booleanValue(scope, 'card_enabled', true, session.id)).toBe(false);
    expect(await reader.stringValue(scope, 'three_d_secure', 'when_required', session.id)).toBe('off');
    expect(await reader.stringValue(scope, 'gift_wrap', 'none', session.id)).toBe('gift_wrap-on');
    expect(['pay', 'pay_now']).toContain(await reader.stringValue(scope, 'pay_button_wording', 'none', session.id));

    // Read once: a change after the read is seen by the next read, not by this reader.
    await setFlag(ctx, 'card_enabled', true);
    expect(await reader.booleanValue(scope, 'card_enabled', false, session.id)).toBe(false);
    expect(await (await ctx.h.tillpoint.deps.flags.read!(scope, builtInFlagKeys)).booleanValue(scope, 'card_enabled', false, session.id)).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { payCheckoutSession } from '../../src/domain/payments/use-cases/pay-checkout-session';
import type { AuthorizeRequest, PaymentProcessor, ProcessorDirectory } from '../../src/domain/processors/ports';
import type { Deps } from '../../src/domain/deps';
import type { SqlClient } from '../../src/persistence/sql-client';
import { sqlProcessorConfigStore } from '../../src/persistence/stores/processors/processor-configs';
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
 * Paying reads its account's flags (kill switches, 3-D Secure) and running experiments in the same
 * statement as the session and its processor config: the flags as stored at payment time, with no
 * statement of their own. Flags are changed through one instance and paid through another.
 */
describe.each(testDatabases)('paying reads its flags with the session ($name)', (database) => {
  const ctx = useIntegration(database);
  let other: Tillpoint | null = null;
  afterEach(async () => {
    // The second instance shares the suite's database: it closes what it opened, not the database.
    await other?.close();
    other = null;
  });

  /** A second instance over the same database, whose every statement is counted. */
  async function secondInstance(c: IntegrationContext): Promise<{ deps: Deps; sent: string[]; authorized: AuthorizeRequest[] }> {
    const sent: string[] = [];
    const db: SqlClient = {
      ...c.db,
      query: (text, params) => {
        sent.push(text);
        return c.db.query(text, params);
      },
      transaction: (work) =>
        c.db.transaction((tx) =>
          work({
            query: (text, params) => {
              sent.push(text);
              return tx.query(text, params);
            },
            exec: (script) => {
              sent.push(script);
              return tx.exec(script);
            },
          }),
        ),
      close: async () => undefined,
    };
    other = await openTillpoint({ db, publicUrl: 'http://localhost' });
    // What the processor is asked, as it is asked.
    const authorized: AuthorizeRequest[] = [];
    const directory = other.deps.processors;
    const watched = (processor: PaymentProcessor): PaymentProcessor =>
      Object.assign(Object.create(processor) as PaymentProcessor, {
        authorize: (request: AuthorizeRequest) => {
          authorized.push(request);
          return processor.authorize(request);
        },
      });
    const processors: ProcessorDirectory = {
      forScope: async (scope) => watched(await directory.forScope(scope)),
      sessionToPay: async (id) => {
        const found = await directory.sessionToPay(id);
        return found && { ...found, processor: async () => watched(await found.processor()) };
      },
    };
    sent.length = 0;
    return { deps: { ...other.deps, processors }, sent, authorized };
  }

  const setFlag = async (c: IntegrationContext, key: string, value: unknown) => {
    const res = await merchantCall(c.h, c.key, 'POST', `/v1/flags/${key}`, { value });
    expect(res.statusCode, res.body).toBe(200);
  };

  const pay = (deps: Deps, sessionId: string, nonce: string) =>
    payCheckoutSession(deps, { sessionId, paymentMethodType: 'card', nonce, email: 'shopper@example.com' });

  it('a kill switch thrown on another instance after the page loaded refuses the next payment, in one statement', async () => {
    const { deps, sent } = await secondInstance(ctx);
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id);
    await setFlag(ctx, 'card_enabled', false);
    sent.length = 0;
    await expect(pay(deps, session.id, nonce)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment_method_type' });
    // The session, its processor config and its flags: one statement, and nothing written.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/FROM flags f/);

    await setFlag(ctx, 'card_enabled', true);
    sent.length = 0;
    const paid = await pay(deps, session.id, nonce);
    expect(paid.payment?.status).toBe('succeeded');
  });

  it('pays with the 3-D Secure flag as stored at payment time, sending no statement for the flags', async () => {
    const { deps, sent, authorized } = await secondInstance(ctx);
    // A running experiment on a page surface: read along, and converted when the payment wins.
    await runPayButtonExperiment(ctx.h, ctx.key);
    const session = await createSession(ctx);
    await recordPayButtonExposure(ctx.h, session.id);
    // A 3-D Secure test card, verified as the page verifies it: `always` requires the liability shift.
    const tokenized = await tokenize(ctx.h, session.id, { ...testCard, number: '4000000000002701' });
    const verified = await ctx.h.app.inject({ method: 'POST', url: `/api/checkout/sessions/${session.id}/three-d-secure`, payload: { nonce: tokenized } });
    expect(verified.statusCode, verified.body).toBe(200);
    const nonce: string = verified.json().nonce;
    await setFlag(ctx, 'three_d_secure', 'always');
    sent.length = 0;
    const paid = await pay(deps, session.id, nonce);
    expect(paid.payment?.status).toBe('succeeded');
    expect(authorized.map((r) => r.threeDSecureMode)).toEqual(['always']);
    // Session + processor config + flags; the intent; the test processor's nonce and transaction;
    // the outcome. Only the first reads flags (no `flags.listWithRunningExperiments` of its own).
    expect(sent, sent.map((t) => t.slice(0, 80)).join('\n')).toHaveLength(5);
    expect(sent.map((text) => /FROM (flags|experiments)\b/.test(text))).toEqual([true, false, false, false, false]);
    const converted = await ctx.db.query('SELECT converted_at FROM experiment_exposures WHERE checkout_session_id = $1', [session.id]);
    expect(converted.rows.map((r) => r.converted_at !== null)).toEqual([true]);
  });

  it('reads the same flags and running experiments with the session as flag evaluation reads alone', async () => {
    await setFlag(ctx, 'card_enabled', false);
    await setFlag(ctx, 'three_d_secure', 'off');
    const custom = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags', { key: 'gift_wrap', value: 'ribbon' });
    expect(custom.statusCode, custom.body).toBe(200);
    for (const key of ['checkout_layout', 'pay_button_wording']) {
      const res = await merchantCall(ctx.h, ctx.key, 'POST', '/v1/experiments', {
        key,
        variants: key === 'checkout_layout'
          ? [{ key: 'wallet_first', weight: 1 }, { key: 'card_first', weight: 3 }]
          : [{ key: 'pay', weight: 1 }, { key: 'pay_now', weight: 1 }],
        planned_sample_size: 10,
        status: 'running',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const session = await createSession(ctx);
    const scope = { accountId: ctx.accountId, mode: 'test' as const };
    const alone = await ctx.h.tillpoint.deps.store.read((r) => r.flags.listWithRunningExperiments(scope));
    expect(alone.stored.length).toBeGreaterThanOrEqual(3);
    expect(alone.running).toHaveLength(2);
    const found = await sqlProcessorConfigStore(ctx.db, null).sessionWithConfig(session.id, { withFlags: true });
    // In whichever order: evaluation looks them up by key.
    const byKey = <T extends { key: string }>(list: T[]) => [...list].sort((a, b) => a.key.localeCompare(b.key));
    expect(found?.flags && { stored: byKey(found.flags.stored), running: byKey(found.flags.running) }).toEqual(alone);
    // Without `withFlags` the statement reads no flags.
    const bare = await sqlProcessorConfigStore(ctx.db, null).sessionWithConfig(session.id);
    expect(bare && 'flags' in bare).toBe(false);
  });
});

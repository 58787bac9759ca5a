import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSessionOf, expectError, payCall, rows, tokenizeCall, useIntegration, type IntegrationContext } from '../support/integration';

type Attempt = 'approve_card' | 'decline_card' | 'fake_valid' | 'fake_declined';

const cards: Record<'approve_card' | 'decline_card', Record<string, unknown>> = {
  approve_card: { number: '4111111111111111', exp_month: 12, exp_year: 2034, cvc: '123' },
  decline_card: { number: '4000111111111115', exp_month: 12, exp_year: 2034, cvc: '123' },
};

/** One shopper attempt: tokenize when it types a card, then pay. Returns the answers it got. */
async function attempt(ctx: IntegrationContext, sessionId: string, kind: Attempt) {
  let nonce: string;
  if (kind === 'fake_valid') nonce = 'fake-valid-nonce';
  else if (kind === 'fake_declined') nonce = 'fake-processor-declined-visa-nonce';
  else {
    const token = await tokenizeCall(ctx.h, sessionId, cards[kind]);
    if (token.statusCode !== 200) return { kind, tokenize: token, pay: null };
    nonce = token.json().nonce;
  }
  return { kind, tokenize: null, pay: await payCall(ctx.h, sessionId, nonce) };
}

async function paymentsOf(ctx: IntegrationContext, sessionId: string) {
  return rows(ctx.db, 'SELECT id, status FROM payments WHERE checkout_session_id = $1', [sessionId]);
}

function codeOf(res: LightMyRequestResponse): string {
  return res.statusCode === 200 ? res.json().status : `${res.statusCode} ${res.json().error?.code}`;
}

describe.each(testDatabases)('exactly one payment per session ($name)', (database) => {
  const ctx = useIntegration(database);

  it('10 concurrent payments of one session: one succeeds, the others get 409', async () => {
    const session = await createSessionOf(ctx, 2500);
    const nonces = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const res = await tokenizeCall(ctx.h, session.id, cards.approve_card);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().nonce as string;
      }),
    );
    expect(new Set(nonces).size).toBe(10);

    const answers = await Promise.all(nonces.map((nonce) => payCall(ctx.h, session.id, nonce)));
    const summary = answers.map(codeOf).sort();
    const winners = answers.filter((res) => res.statusCode === 200);
    expect(winners, summary.join(', ')).toHaveLength(1);
    expect(winners[0]!.json().status).toBe('succeeded');
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode, summary.join(', ')).toBe(409);
      const code = res.json().error.code;
      expect(['idempotency_key_in_use', 'checkout_session_completed']).toContain(code);
      expectError(res, 409, code);
    }

    const payments = await paymentsOf(ctx, session.id);
    const holding = payments.filter((p) => p.status !== 'failed');
    expect(holding).toHaveLength(1);
    expect(holding[0]!.status).toBe('succeeded');
    const [row] = await rows(ctx.db, 'SELECT status, payment_id FROM checkout_sessions WHERE id = $1', [session.id]);
    expect(row).toEqual({ status: 'complete', payment_id: holding[0]!.id });
    const succeededEvents = await rows(ctx.db, `SELECT * FROM events WHERE type = 'payment.succeeded'`);
    expect(succeededEvents).toHaveLength(1);
    const completedEvents = await rows(ctx.db, `SELECT * FROM events WHERE type = 'checkout.session.completed'`);
    expect(completedEvents).toHaveLength(1);
  });

  it('property: any sequence of attempts, some concurrent, pays a session at most once', async () => {
    const attemptArb = fc.constantFrom<Attempt>('approve_card', 'decline_card', 'fake_valid', 'fake_declined');
    // Groups run one after another; the attempts inside a group run concurrently.
    const scenarioArb = fc.array(fc.array(attemptArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 });

    await fc.assert(
      fc.asyncProperty(scenarioArb, async (groups) => {
        const session = await createSessionOf(ctx, 1200);
        const log: string[] = [];
        let okAnswers = 0;
        for (const group of groups) {
          const results = await Promise.all(group.map((kind) => attempt(ctx, session.id, kind)));
          for (const result of results) {
            const res = result.pay ?? result.tokenize!;
            log.push(`${result.kind}: ${result.pay ? 'pay' : 'tokenize'} ${codeOf(res)}`);
            if (res.statusCode === 200 && result.pay) {
              okAnswers += 1;
              expect(res.json().status).toBe('succeeded');
            } else if (res.statusCode === 402) {
              expect(res.json().error).toMatchObject({ code: 'card_declined', decline_code: 'do_not_honor' });
              expect(result.kind === 'decline_card' || result.kind === 'fake_declined', log.join('\n')).toBe(true);
            } else {
              // Nothing but "someone else is paying" or "already paid" may refuse an attempt.
              expect(res.statusCode, log.join('\n')).toBe(409);
              expect(['idempotency_key_in_use', 'checkout_session_completed'], log.join('\n')).toContain(res.json().error.code);
            }
          }
        }

        const payments = await paymentsOf(ctx, session.id);
        const succeeded = payments.filter((p) => p.status === 'succeeded');
        const holding = payments.filter((p) => p.status !== 'failed');
        expect(succeeded.length, log.join('\n')).toBeLessThanOrEqual(1);
        expect(holding.length, log.join('\n')).toBe(succeeded.length); // nothing left processing
        expect(okAnswers).toBe(succeeded.length);
        const [row] = await rows(ctx.db, 'SELECT status, payment_id FROM checkout_sessions WHERE id = $1', [session.id]);
        expect(row!.status === 'complete', log.join('\n')).toBe(succeeded.length === 1);
        expect(row!.payment_id).toBe(succeeded[0]?.id ?? null);
        // An approving attempt made alone on an open session always wins.
        const firstSoloApproval = groups.findIndex((g) => g.length === 1 && (g[0] === 'approve_card' || g[0] === 'fake_valid'));
        if (firstSoloApproval >= 0) expect(row!.status, log.join('\n')).toBe('complete');
      }),
      { numRuns: 15 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSessionOf, payCall, rows, useIntegration } from '../support/integration';

/**
 * Shoppers paying at once: each payment is its own statements and transactions, and each shopper
 * gets exactly the answer and the rows paying alone would give.
 */
describe.each(testDatabases)('payments made at once ($name)', (database) => {
  const ctx = useIntegration(database);

  it('approvals and declines at once: each its own answer, payment, session and events', async () => {
    // 2001.00 USD is declined by the test processor; the others are approved.
    const amounts = [3500, 200100, 1200, 4800, 200100, 990, 2500, 7700, 1500, 200100];
    const sessions = await Promise.all(amounts.map((amount) => createSessionOf(ctx, amount)));
    const answers = await Promise.all(sessions.map((session) => payCall(ctx.h, session.id, 'fake-valid-visa-nonce')));

    for (const [i, res] of answers.entries()) {
      const declined = amounts[i] === 200100;
      expect(res.statusCode, res.body).toBe(declined ? 402 : 200);
      if (declined) expect(res.json().error).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
      else expect(res.json()).toMatchObject({ status: 'succeeded' });
      const payments = await rows(ctx.db, 'SELECT status, amount, amount_captured, processor_transaction_id FROM payments WHERE checkout_session_id = $1', [
        sessions[i]!.id,
      ]);
      expect(payments).toHaveLength(1);
      expect(payments[0]!.status).toBe(declined ? 'failed' : 'succeeded');
      expect(Number(payments[0]!.amount)).toBe(amounts[i]);
      expect(Number(payments[0]!.amount_captured)).toBe(declined ? 0 : amounts[i]);
      expect(payments[0]!.processor_transaction_id).toEqual(expect.any(String));
      const [session] = await rows(ctx.db, 'SELECT status, payment_id FROM checkout_sessions WHERE id = $1', [sessions[i]!.id]);
      expect(session!.status).toBe(declined ? 'open' : 'complete');
      const events = await rows(ctx.db, 'SELECT type FROM events WHERE object_id = ANY($1) ORDER BY type', [[sessions[i]!.id]]);
      expect(events.map((e) => e.type)).toEqual(declined ? [] : ['checkout.session.completed']);
    }
    const types = (await rows(ctx.db, `SELECT type, count(*)::int AS n FROM events WHERE type LIKE 'payment.%' GROUP BY type ORDER BY type`)).map(
      (r) => `${r.type} ${r.n}`,
    );
    expect(types).toEqual(['payment.failed 3', 'payment.succeeded 7']);
  });

  it('two attempts on one session at once: one payment, the other told it is under way or done', async () => {
    for (let round = 0; round < 3; round++) {
      const session = await createSessionOf(ctx, 2500);
      const others = await Promise.all([createSessionOf(ctx, 1000), createSessionOf(ctx, 1100)]);
      // Two attempts on one session among others paying at once.
      const answers = await Promise.all([
        payCall(ctx.h, others[0]!.id, 'fake-valid-visa-nonce'),
        payCall(ctx.h, session.id, 'fake-valid-visa-nonce'),
        payCall(ctx.h, session.id, 'fake-valid-visa-nonce'),
        payCall(ctx.h, others[1]!.id, 'fake-valid-visa-nonce'),
      ]);
      expect(answers[0]!.statusCode).toBe(200);
      expect(answers[3]!.statusCode).toBe(200);
      const mine = [answers[1]!, answers[2]!];
      expect(mine.filter((res) => res.statusCode === 200)).toHaveLength(1);
      const refused = mine.find((res) => res.statusCode !== 200)!;
      expect(refused.statusCode, refused.body).toBe(409);
      expect(['idempotency_key_in_use', 'checkout_session_completed']).toContain(refused.json().error.code);
      const payments = await rows(ctx.db, 'SELECT status FROM payments WHERE checkout_session_id = $1', [session.id]);
      expect(payments).toEqual([{ status: 'succeeded' }]);
    }
  });
});

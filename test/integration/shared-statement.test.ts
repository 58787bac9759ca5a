import { describe, expect, it } from 'vitest';
import type { Payment } from '../../src/domain/payments/entities';
import { newPayment } from '../../src/domain/payments/rules';
import type { SandboxTransaction } from '../../src/domain/processors/sandbox-ports';
import type { CheckoutSession } from '../../src/domain/sessions/entities';
import { paymentRepositories } from '../../src/persistence/stores/payments/payments';
import { checkoutSessionRepositories } from '../../src/persistence/stores/sessions/checkout-sessions';
import { sqlSandboxTransactionLedger } from '../../src/persistence/stores/processors/sandbox-transactions';
import { recordPart, recordSet, type Field } from '../../src/persistence/rows';
import { openPostgres } from '../../src/persistence/sql-client';
import { testDatabases } from '../support/databases';
import { createSessionOf, rows, useIntegration, type IntegrationContext } from '../support/integration';
import { TcpProxy } from '../support/tcp-proxy';

/**
 * Statements shared by callers that arrive together (src/persistence/shared-statement.ts): each
 * member gets the answer it would get alone, a member that fails fails alone, and a member whose
 * row is locked elsewhere is sent on alone instead of holding up the others.
 */
describe.each(testDatabases)('statements shared by payments made at once ($name)', (database) => {
  const ctx = useIntegration(database);

  async function openSession(c: IntegrationContext, amount = 2500): Promise<CheckoutSession> {
    const created = await createSessionOf(c, amount);
    return (await c.h.tillpoint.deps.store.read((r) => r.checkoutSessions.get(null, created.id)))!;
  }

  const paymentOf = (session: CheckoutSession) => newPayment(session, 'shopper@example.com', 'test', new Date());

  /** Four sessions in the four states an intent tells apart, and the intent for each. */
  async function intentCases(c: IntegrationContext): Promise<{ payment: Payment; session: CheckoutSession }[]> {
    const payable = await openSession(c);
    const busy = await openSession(c);
    expect(await paymentRepositories(c.db).payments.insertForSession(paymentOf(busy), busy)).toBe('inserted');
    const moved = await openSession(c);
    await rows(c.db, `UPDATE checkout_sessions SET updated_at = updated_at + interval '1 second' WHERE id = $1`, [moved.id]);
    const missing = { ...(await openSession(c)), id: 'cs_test_missing' };
    return [payable, busy, moved, missing].map((session) => ({ payment: paymentOf(session), session }));
  }

  it('a record reads back as written: text of any kind, numbers, dates, JSON; JSON null is SQL NULL', async () => {
    type Thing = { id: string; amount: number; at: Date; paid: boolean; note: string | null; details: unknown };
    const fields: readonly Field<Thing>[] = [
      ['id', 'text', (t) => t.id],
      ['amount', 'bigint', (t) => t.amount],
      ['at', 'timestamptz', (t) => t.at],
      ['paid', 'boolean', (t) => t.paid],
      ['note', 'text', (t) => t.note],
      ['details', 'jsonb', (t) => t.details],
    ];
    const things: Thing[] = [
      {
        id: 'a',
        amount: 9_007_199_254_740_991,
        at: new Date('2026-11-25T08:00:00.123Z'),
        paid: true,
        note: 'line "one"\nline two — é 🚀 \\',
        details: { last4: '1111', list: [1, null] },
      },
      { id: 'b', amount: 0, at: new Date(0), paid: false, note: null, details: null },
    ];
    const thingRecord = recordPart(fields, '', (t: Thing) => t);
    const { rows: read } = await ctx.db.query(
      `SELECT n, id, amount::text, at, paid, note, details, details IS NULL AS details_missing FROM (${recordSet(fields.map(([c, t]) => [c, t]))}) r ORDER BY n`,
      [`[${things.map((t, n) => `[${n},${thingRecord.values(t)}]`).join(',')}]`],
    );
    expect(read).toEqual([
      { n: 0, id: 'a', amount: '9007199254740991', at: things[0]!.at, paid: true, note: things[0]!.note, details: things[0]!.details, details_missing: false },
      { n: 1, id: 'b', amount: '0', at: things[1]!.at, paid: false, note: null, details: null, details_missing: true },
    ]);
  });

  it('intents made together are each answered as they would be alone', async () => {
    const together = await Promise.all(
      (await intentCases(ctx)).map(({ payment, session }) => paymentRepositories(ctx.db).payments.insertForSession(payment, session)),
    );
    // The same cases, each alone in a transaction of its own.
    const alone = [];
    for (const { payment, session } of await intentCases(ctx)) {
      alone.push(await ctx.db.transaction((tx) => paymentRepositories(tx).payments.insertForSession(payment, session)));
    }
    expect(together).toEqual(['inserted', 'busy', 'session_changed', 'session_changed']);
    expect(alone).toEqual(together);
  });

  it('two intents for one session never share a statement: one payment, the other told it is busy', async () => {
    const session = await openSession(ctx);
    const others = [await openSession(ctx), await openSession(ctx)];
    const answers = await Promise.all(
      [session, others[0]!, session, others[1]!, session].map((s) => paymentRepositories(ctx.db).payments.insertForSession(paymentOf(s), s)),
    );
    // Which of the three wins is the database's to decide (they go on separate connections); one does.
    expect([answers[0], answers[2], answers[4]].sort()).toEqual(['busy', 'busy', 'inserted']);
    expect([answers[1], answers[3]]).toEqual(['inserted', 'inserted']);
    expect(await rows(ctx.db, 'SELECT count(*)::int AS n FROM payments WHERE checkout_session_id = $1', [session.id])).toEqual([{ n: 1 }]);
  });

  const transaction = (id: string, paymentId: string): SandboxTransaction => {
    const at = new Date();
    return {
      id,
      paymentId,
      status: 'authorized',
      currency: 'usd',
      amountAuthorized: 1000,
      amountCaptured: 0,
      amountRefunded: 0,
      authorization: { outcome: 'approved' } as unknown as SandboxTransaction['authorization'],
      settlesAt: null,
      createdAt: at,
      updatedAt: at,
    };
  };

  it('a member that breaks a constraint fails alone; every other member is written and answered', async () => {
    const ledger = sqlSandboxTransactionLedger(ctx.db);
    await ledger.insert(transaction('tt_taken', 'pay_first'));
    const ids = ['tt_a', 'tt_b', 'tt_taken', 'tt_c', 'tt_d'];
    const settled = await Promise.allSettled(ids.map((id) => ledger.insert(transaction(id, `pay_${id}`))));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason.message).toMatch(/duplicate key/);
    const written = await rows(ctx.db, 'SELECT id, payment_id FROM test_processor_transactions ORDER BY id');
    expect(written).toEqual([
      { id: 'tt_a', payment_id: 'pay_tt_a' },
      { id: 'tt_b', payment_id: 'pay_tt_b' },
      { id: 'tt_c', payment_id: 'pay_tt_c' },
      { id: 'tt_d', payment_id: 'pay_tt_d' },
      { id: 'tt_taken', payment_id: 'pay_first' },
    ]);
  });

  it.runIf(database.name === 'postgres')(
    'a statement whose answer is lost with its connection is not sent again: each member is told database_unavailable, and its rows are written once',
    async () => {
      // A shared statement the server committed whose answer never came back (a primary stopped
      // between the two, PgBouncer then holding the resend until it is back): sent again alone, each
      // member would find its own row already there and fail as a duplicate, which a payment answered
      // as a 500 to a shopper the processor had charged. As one member alone, each is told to retry.
      const target = new URL(process.env.TEST_DATABASE_URL!);
      const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(target);
      viaProxy.host = `127.0.0.1:${await proxy.start()}`;
      const schema = (await rows(ctx.db, 'SELECT current_schema() AS schema'))[0]!.schema as string;
      const db = await openPostgres(viaProxy.toString(), { schema, max: 4 });
      try {
        const ledger = sqlSandboxTransactionLedger(db);
        const lost = proxy.loseAnswerTo('pay_lost_');
        const settled = await Promise.allSettled(['tt_x', 'tt_y', 'tt_z'].map((id) => ledger.insert(transaction(id, `pay_lost_${id}`))));
        await lost;
        expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'written'))).toEqual([
          'database_unavailable',
          'database_unavailable',
          'database_unavailable',
        ]);
        expect(await rows(ctx.db, 'SELECT id FROM test_processor_transactions ORDER BY id')).toEqual([{ id: 'tt_x' }, { id: 'tt_y' }, { id: 'tt_z' }]);
        // The client recovers: a new connection answers.
        await ledger.insert(transaction('tt_after', 'pay_after'));
        expect(await rows(ctx.db, 'SELECT count(*)::int AS n FROM test_processor_transactions')).toEqual([{ n: 4 }]);
      } finally {
        await db.close();
        await proxy.stop();
      }
    },
  );

  it('a member that cannot even be sent (it throws before its statement) fails alone; the others are answered', async () => {
    const sessions = [await openSession(ctx), await openSession(ctx), await openSession(ctx)];
    const payments = sessions.map(paymentOf);
    // An amount JSON cannot write: the member throws while its statement is being built.
    const broken = { ...payments[1]!, amount: 10n as unknown as number };
    const settled = await Promise.allSettled(
      [payments[0]!, broken, payments[2]!].map((payment, i) => paymentRepositories(ctx.db).payments.insertForSession(payment, sessions[i]!)),
    );
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'rejected'))).toEqual(['inserted', 'rejected', 'inserted']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    const held = await rows(ctx.db, 'SELECT checkout_session_id FROM payments ORDER BY checkout_session_id');
    expect(held.map((p) => p.checkout_session_id)).toEqual([sessions[0]!.id, sessions[2]!.id].sort());
  });

  it('sessions created at once are written with their audit lines; one whose id is taken fails alone', async () => {
    const template = await openSession(ctx);
    const audit = (id: string) => ({
      id: `al_${id}`,
      accountId: template.accountId,
      mode: template.mode,
      actor: { type: 'api_key' as const, id: 'key_1', label: 'Default key', ip: '192.0.2.1' },
      action: 'checkout_session.created',
      target: id,
      at: new Date(),
    });
    const ids = ['cs_test_one', 'cs_test_two', template.id, 'cs_test_three'];
    const settled = await Promise.allSettled(ids.map((id) => checkoutSessionRepositories(ctx.db).checkoutSessions.insert({ ...template, id }, audit(id))));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const made = await rows(ctx.db, `SELECT id FROM checkout_sessions WHERE id LIKE 'cs_test_%' ORDER BY id`);
    expect(made.map((r) => r.id)).toEqual(['cs_test_one', 'cs_test_three', 'cs_test_two']);
    const audited = await rows(ctx.db, `SELECT target FROM audit_log WHERE id LIKE 'al_%' ORDER BY target`);
    expect(audited.map((r) => r.target)).toEqual(['cs_test_one', 'cs_test_three', 'cs_test_two']);
  });

  it('sessions read at once by id: each its own row, one asked for twice answered twice, an unknown id null', async () => {
    const sessions = [await openSession(ctx, 1000), await openSession(ctx, 2000)];
    const reads = await Promise.all(
      [sessions[0]!.id, sessions[1]!.id, sessions[0]!.id, 'cs_test_unknown'].map((id) => checkoutSessionRepositories(ctx.db).checkoutSessions.get(null, id)),
    );
    expect(reads).toEqual([sessions[0], sessions[1], sessions[0], null]);
  });

  it('inside a transaction a member runs alone, in that transaction: rolled back with it', async () => {
    const session = await openSession(ctx);
    await expect(
      ctx.db.transaction(async (tx) => {
        expect(await paymentRepositories(tx).payments.insertForSession(paymentOf(session), session)).toBe('inserted');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows(ctx.db, 'SELECT id FROM payments')).toEqual([]);
  });
});

const postgres = testDatabases.find((database) => database.name === 'postgres');

/** PostgreSQL only: PGlite has one connection, so nothing else can hold a lock while a statement runs. */
describe.skipIf(!postgres)('a shared statement beside a row locked elsewhere (postgres)', () => {
  const ctx = useIntegration(postgres!);

  const openSession = async (amount: number) => {
    const created = await createSessionOf(ctx, amount);
    return (await ctx.h.tillpoint.deps.store.read((r) => r.checkoutSessions.get(null, created.id)))!;
  };

  /** Holds `sql`'s row lock on another connection for `ms`; resolves once the lock is taken. */
  async function holdLock(sql: string, id: string, ms: number): Promise<{ released: Promise<number> }> {
    let taken!: () => void;
    const isTaken = new Promise<void>((resolve) => (taken = resolve));
    const released = ctx.db.transaction(async (tx) => {
      await tx.query(sql, [id]);
      taken();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return performance.now();
    });
    await isTaken;
    return { released };
  }

  it('intents: the others are answered at once; the locked session waits alone, then is answered', { timeout: 15_000 }, async () => {
    const [locked, ...others] = await Promise.all([1000, 1100, 1200, 1300].map(openSession));
    const { released } = await holdLock('SELECT id FROM checkout_sessions WHERE id = $1 FOR UPDATE', locked!.id, 1_000);
    const answeredAt = new Map<string, number>();
    const intents = [locked!, ...others].map((session) =>
      paymentRepositories(ctx.db)
        .payments.insertForSession(newPayment(session, 'shopper@example.com', 'test', new Date()), session)
        .then((answer) => {
          answeredAt.set(session.id, performance.now());
          return answer;
        }),
    );
    const answers = await Promise.all(intents);
    const releasedAt = await released;
    expect(answers).toEqual(['inserted', 'inserted', 'inserted', 'inserted']);
    for (const session of others) expect(answeredAt.get(session.id)!).toBeLessThan(releasedAt);
    expect(answeredAt.get(locked!.id)!).toBeGreaterThanOrEqual(releasedAt);
  });

  it('outcomes: a payment locked elsewhere holds up no other outcome', { timeout: 15_000 }, async () => {
    const sessions = await Promise.all([2000, 2100, 2200].map(openSession));
    const payments = sessions.map((session) => newPayment(session, 'shopper@example.com', 'test', new Date()));
    for (const [i, payment] of payments.entries()) expect(await paymentRepositories(ctx.db).payments.insertForSession(payment, sessions[i]!)).toBe('inserted');
    const { released } = await holdLock('SELECT id FROM payments WHERE id = $1 FOR UPDATE', payments[0]!.id, 1_000);
    const answeredAt: number[] = [];
    const outcomes = payments.map((payment, i) =>
      paymentRepositories(ctx.db)
        .payments.recordOutcome({
          payment: { ...payment, status: 'failed', failureCode: 'card_declined', updatedAt: new Date() },
          expectedStatus: 'processing',
          event: null,
        })
        .then((moved) => {
          answeredAt[i] = performance.now();
          return moved;
        }),
    );
    expect(await Promise.all(outcomes)).toEqual(['recorded', 'recorded', 'recorded']);
    const releasedAt = await released;
    expect(answeredAt[1]!).toBeLessThan(releasedAt);
    expect(answeredAt[2]!).toBeLessThan(releasedAt);
    expect(answeredAt[0]!).toBeGreaterThanOrEqual(releasedAt);
    expect(await rows(ctx.db, 'SELECT DISTINCT status FROM payments')).toEqual([{ status: 'failed' }]);
  });
});

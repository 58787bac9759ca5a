import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { countRows, createSession, payCall, rows, useIntegration } from '../support/integration';

/** `work`, or a failure naming `what` once `ms` have passed. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} waited more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.each(testDatabases)('accounts are kept ($name)', (database) => {
  const ctx = useIntegration(database);

  it('deleting an account is refused and changes nothing: its sessions, payments and audit log keep naming it', async () => {
    const session = await createSession(ctx);
    expect((await payCall(ctx.h, session.id, 'fake-valid-visa-nonce')).statusCode).toBe(200);

    await expect(ctx.db.query('DELETE FROM accounts WHERE id = $1', [ctx.accountId])).rejects.toThrow(/accounts are never deleted/);

    expect(await rows(ctx.db, 'SELECT id FROM accounts WHERE id = $1', [ctx.accountId])).toHaveLength(1);
    expect(await countRows(ctx.db, 'checkout_sessions')).toBe(1);
    expect(await countRows(ctx.db, 'payments')).toBe(1);
    expect(await rows(ctx.db, 'SELECT id FROM audit_log WHERE account_id = $1', [ctx.accountId])).not.toHaveLength(0);
  });
});

/**
 * Every session, payment, event, audit line and request-log row names its account. Checked by a
 * foreign key, each of those inserts locked the account's one row (FOR KEY SHARE), so all of a busy
 * account's writes met on it; they name it without a lock now (migration 16). Shown here with the
 * row held FOR UPDATE, which every such lock would wait for.
 */
const postgres = testDatabases.find((d) => d.name === 'postgres');
describe.skipIf(!postgres)("an account's writes take no lock on its row (PostgreSQL)", () => {
  const ctx = useIntegration(postgres ?? testDatabases[0]!);

  it('with the account row held FOR UPDATE, a session is opened, paid, audited and logged', async () => {
    const holder = ctx.db.dedicated!()!;
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [ctx.accountId]);

      const session = await within(3000, 'opening a session', createSession(ctx));
      const paid = await within(3000, 'paying it', payCall(ctx.h, session.id, 'fake-valid-visa-nonce'));
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe('succeeded');
      // The request log is written just after the answer, in a batch.
      await within(
        3000,
        'the request log',
        (async () => {
          while ((await rows(ctx.db, 'SELECT id FROM api_requests WHERE account_id = $1', [ctx.accountId])).length === 0) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })(),
      );
      expect(await rows(ctx.db, `SELECT action FROM audit_log WHERE account_id = $1 AND action = 'checkout_session.create'`, [ctx.accountId])).toHaveLength(1);
      expect(await rows(ctx.db, `SELECT type FROM events WHERE account_id = $1 AND type = 'payment.succeeded'`, [ctx.accountId])).not.toHaveLength(0);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });
});

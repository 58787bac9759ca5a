import type { Payment } from '../domain/payments/entities';
import type {
  ApiRequestRecord,
  AuditEntry,
  DashboardSession,
  Invite,
  Membership,
  User, Account,
} from '../domain/team/entities';
import type { TeamRepositories } from '../domain/team/ports';
import { write, type SqlExecutor } from './sql-client';
import { toPayment, toSession } from './sql-store';
import type { Scope } from '../domain/shared/scope';
import type { CheckoutSession } from '../domain/sessions/entities';

type Row = Record<string, any>;

const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

const toUser = (row: Row): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  createdAt: new Date(row.created_at),
});

const toMembership = (row: Row): Membership => ({
  accountId: row.account_id,
  userId: row.user_id,
  role: row.role,
  createdAt: new Date(row.created_at),
});

const toDashboardSession = (row: Row): DashboardSession => ({
  id: row.id,
  tokenHash: row.token_hash,
  userId: row.user_id,
  csrfToken: row.csrf_token,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  ip: row.ip,
});

const toInvite = (row: Row): Invite => ({
  id: row.id,
  accountId: row.account_id,
  role: row.role,
  tokenHash: row.token_hash,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  acceptedAt: dateOrNull(row.accepted_at),
  acceptedBy: row.accepted_by,
  revokedAt: dateOrNull(row.revoked_at),
});

const toAuditEntry = (row: Row): AuditEntry => ({
  id: row.id,
  accountId: row.account_id,
  mode: row.mode,
  actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label, ip: row.ip },
  action: row.action,
  target: row.target,
  at: new Date(row.at),
});

const toApiRequest = (row: Row): ApiRequestRecord => ({
  id: row.id,
  accountId: row.account_id,
  mode: row.mode,
  keyId: row.key_id,
  method: row.method,
  path: row.path,
  status: Number(row.status),
  errorCode: row.error_code,
  requestId: row.request_id,
  at: new Date(row.at),
});

/**
 * Newest-first keyset paging: rows strictly after the cursor row in (`time`, id) order, within the
 * same scope conditions, so a cursor from another account or mode matches nothing.
 */
class Query {
  readonly params: unknown[] = [];
  readonly conditions: string[] = [];
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  where(condition: string) {
    this.conditions.push(condition);
  }
  after(table: string, time: string, cursor: string | undefined, scopeConditions: string) {
    if (!cursor) return;
    this.where(`(${time}, id) < (SELECT ${time}, id FROM ${table} WHERE id = ${this.param(cursor)} AND ${scopeConditions})`);
  }
  get sql() {
    return this.conditions.join(' AND ');
  }
}

function scoped(query: Query, scope: Scope): string {
  const sql = `account_id = ${query.param(scope.accountId)} AND mode = ${query.param(scope.mode)}`;
  query.where(sql);
  return sql;
}

/** The dashboard's repositories over one SQL transaction (see TeamRepositories). */
/** The request log's batch insert: one statement, then one trim per scope it touched. */
async function insertApiRequests(db: SqlExecutor, records: ApiRequestRecord[], keep: number): Promise<void> {
  if (records.length === 0) return;
  const column = <K extends keyof (typeof records)[number]>(k: K) => records.map((r) => r[k]);
  await db.query<Row>(
    `INSERT INTO api_requests (id, account_id, mode, key_id, method, path, status, error_code, request_id, at)
     SELECT v.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                            $8::text[], $9::text[], $10::timestamptz[])
         AS v (id, account_id, mode, key_id, method, path, status, error_code, request_id, at)
     WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = v.account_id)`,
    [
      column('id'), column('accountId'), column('mode'), column('keyId'), column('method'), column('path'),
      column('status'), column('errorCode'), column('requestId'), records.map((r) => r.at.toISOString()),
    ],
  );
  const scopes = new Map(records.map((r) => [`${r.accountId} ${r.mode}`, r]));
  for (const r of scopes.values()) {
    await db.query<Row>(
      `DELETE FROM api_requests WHERE account_id = $1 AND mode = $2 AND (at, id) <= (
         SELECT at, id FROM api_requests WHERE account_id = $1 AND mode = $2 ORDER BY at DESC, id DESC OFFSET $3 LIMIT 1)`,
      [r.accountId, r.mode, keep],
    );
  }
}

export function teamRepositories(db: SqlExecutor): TeamRepositories {
  return {
    users: {
      async insert(u) {
        await db.query<Row>('INSERT INTO users (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
          u.id, u.email, u.name, u.passwordHash, u.createdAt,
        ]);
      },
      async get(id) {
        const { rows } = await db.query<Row>('SELECT * FROM users WHERE id = $1', [id]);
        return rows[0] ? toUser(rows[0]) : null;
      },
      async getByEmail(email) {
        const { rows } = await db.query<Row>('SELECT * FROM users WHERE email = $1', [email]);
        return rows[0] ? toUser(rows[0]) : null;
      },
    },
    memberships: {
      async insert(m) {
        await db.query<Row>('INSERT INTO memberships (account_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)', [
          m.accountId, m.userId, m.role, m.createdAt,
        ]);
      },
      async get(accountId, userId, options = {}) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM memberships WHERE account_id = $1 AND user_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [accountId, userId],
        );
        return rows[0] ? toMembership(rows[0]) : null;
      },
      async listForUser(userId) {
        const { rows } = await db.query<Row>(
          `SELECT m.*, coalesce(a.display_name, a.name) AS account_name, a.default_currency FROM memberships m
           JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1 ORDER BY m.created_at, m.account_id`,
          [userId],
        );
        return rows.map((row) => ({ ...toMembership(row), accountName: row.account_name, defaultCurrency: row.default_currency }));
      },
      async listForAccount(accountId) {
        const { rows } = await db.query<Row>(
          `SELECT m.*, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
           WHERE m.account_id = $1 ORDER BY m.created_at, u.email`,
          [accountId],
        );
        return rows.map((row) => ({ ...toMembership(row), email: row.email, name: row.name }));
      },
      async updateRole(accountId, userId, role) {
        await db.query<Row>('UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2', [accountId, userId, role]);
      },
      async delete(accountId, userId) {
        await db.query<Row>('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
      },
      async ownersForUpdate(accountId) {
        const { rows } = await db.query<{ user_id: string }>(
          `SELECT user_id FROM memberships WHERE account_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
          [accountId],
        );
        return rows.map((row) => row.user_id);
      },
    },
    dashboardSessions: {
      async insert(s) {
        await db.query<Row>(
          `INSERT INTO dashboard_sessions (id, token_hash, user_id, csrf_token, created_at, expires_at, ip)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [s.id, s.tokenHash, s.userId, s.csrfToken, s.createdAt, s.expiresAt, s.ip],
        );
      },
      async getByTokenHash(hash) {
        const { rows } = await db.query<Row>('SELECT * FROM dashboard_sessions WHERE token_hash = $1', [hash]);
        return rows[0] ? toDashboardSession(rows[0]) : null;
      },
      async extend(id, expiresAt) {
        await db.query<Row>('UPDATE dashboard_sessions SET expires_at = $2 WHERE id = $1', [id, expiresAt]);
      },
      async delete(id) {
        await db.query<Row>('DELETE FROM dashboard_sessions WHERE id = $1', [id]);
      },
    },
    invites: {
      async insert(i) {
        await db.query<Row>(
          `INSERT INTO invites (id, account_id, role, token_hash, created_by, created_at, expires_at, accepted_at, accepted_by, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [i.id, i.accountId, i.role, i.tokenHash, i.createdBy, i.createdAt, i.expiresAt, i.acceptedAt, i.acceptedBy, i.revokedAt],
        );
      },
      async getByTokenHash(hash, options = {}) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM invites WHERE token_hash = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [hash],
        );
        return rows[0] ? toInvite(rows[0]) : null;
      },
      async accept(id, userId, at) {
        await db.query<Row>('UPDATE invites SET accepted_at = $3, accepted_by = $2 WHERE id = $1', [id, userId, at]);
      },
      async listPending(accountId, at) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM invites WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
           ORDER BY created_at DESC`,
          [accountId, at],
        );
        return rows.map(toInvite);
      },
      async revoke(accountId, id, at) {
        const { rowCount } = await db.query<Row>(
          `UPDATE invites SET revoked_at = $3
           WHERE id = $1 AND account_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
          [id, accountId, at],
        );
        return rowCount === 1;
      },
    },
    signInFailures: {
      async record(subjects, at) {
        for (const subject of subjects) {
          await db.query<Row>('INSERT INTO sign_in_failures (subject, failed_at) VALUES ($1, $2)', [subject, at]);
          // The throttle never looks further back than a day; the table stays small.
          await db.query<Row>(`DELETE FROM sign_in_failures WHERE subject = $1 AND failed_at < $2::timestamptz - interval '1 day'`, [
            subject,
            at,
          ]);
        }
      },
      async since(subject, from) {
        const { rows } = await db.query<{ failed_at: string }>(
          'SELECT failed_at FROM sign_in_failures WHERE subject = $1 AND failed_at >= $2 ORDER BY failed_at',
          [subject, from],
        );
        return rows.map((row) => new Date(row.failed_at));
      },
      async clear(subject) {
        await db.query<Row>('DELETE FROM sign_in_failures WHERE subject = $1', [subject]);
      },
    },
    auditLog: {
      async insert(e) {
        // Held for the transaction's next statement or its commit: nothing reads it back.
        await write(db, {
          text: `INSERT INTO audit_log (id, account_id, mode, actor_type, actor_id, actor_label, ip, action, target, at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          params: [e.id, e.accountId, e.mode, e.actor.type, e.actor.id, e.actor.label, e.actor.ip, e.action, e.target, e.at],
          tables: ['audit_log'],
        });
      },
      async list(accountId, page) {
        const q = new Query();
        const scope = `account_id = ${q.param(accountId)}`;
        q.where(scope);
        q.after('audit_log', 'at', page.startingAfter, scope);
        const { rows } = await db.query<Row>(
          `SELECT * FROM audit_log WHERE ${q.sql} ORDER BY at DESC, id DESC LIMIT ${q.param(page.limit)}`,
          q.params,
        );
        return rows.map(toAuditEntry);
      },
    },
    apiRequests: {
      async insert(r, keep) {
        await insertApiRequests(db, [r], keep);
      },
      insertMany: (records, keep) => insertApiRequests(db, records, keep),
      async list(scope, page) {
        const q = new Query();
        q.after('api_requests', 'at', page.startingAfter, scoped(q, scope));
        const { rows } = await db.query<Row>(
          `SELECT * FROM api_requests WHERE ${q.sql} ORDER BY at DESC, id DESC LIMIT ${q.param(page.limit)}`,
          q.params,
        );
        return rows.map(toApiRequest);
      },
    },
    accountProfiles: {
      async update(a: Account) {
        await db.query<Row>(
          `UPDATE accounts SET name = $2, display_name = $3, logo_url = $4, accent_color = $5, support_email = $6 WHERE id = $1`,
          [a.id, a.name, a.branding.displayName, a.branding.logoUrl, a.branding.accentColor, a.supportEmail],
        );
      },
    },
    dashboardSearch: {
      async payments(scope, f): Promise<Payment[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.statuses?.length) q.where(`status = ANY(${q.param(f.statuses)}::text[])`);
        if (f.createdFrom) q.where(`created_at >= ${q.param(f.createdFrom)}`);
        if (f.createdBefore) q.where(`created_at < ${q.param(f.createdBefore)}`);
        if (f.amountMin !== undefined) q.where(`amount >= ${q.param(f.amountMin)}`);
        if (f.amountMax !== undefined) q.where(`amount <= ${q.param(f.amountMax)}`);
        if (f.email) q.where(`lower(customer_email) = ${q.param(f.email.toLowerCase())}`);
        if (f.last4) q.where(`payment_method->>'last4' = ${q.param(f.last4)}`);
        if (f.id) {
          const id = q.param(f.id);
          q.where(`(id = ${id} OR checkout_session_id = ${id})`);
        }
        q.after('payments', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM payments WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`,
          q.params,
        );
        return rows.map(toPayment);
      },
      async checkoutSessions(scope, f): Promise<CheckoutSession[]> {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (f.status) q.where(`status = ${q.param(f.status)}`);
        q.after('checkout_sessions', 'created_at', f.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM checkout_sessions WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(f.limit)}`,
          q.params,
        );
        return rows.map(toSession);
      },
      async dailyPayments(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, currency,
                  count(*) FILTER (WHERE status IN ('succeeded', 'requires_capture')) AS succeeded,
                  count(*) FILTER (WHERE status IN ('succeeded', 'requires_capture', 'failed')) AS finished,
                  coalesce(sum(amount) FILTER (WHERE status IN ('succeeded', 'requires_capture')), 0) AS volume
           FROM payments WHERE account_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4
           GROUP BY 1, 2 ORDER BY 1, 2`,
          [scope.accountId, scope.mode, from, before],
        );
        return rows.map((row) => ({
          day: row.day,
          currency: row.currency,
          succeeded: Number(row.succeeded),
          finished: Number(row.finished),
          volume: Number(row.volume),
        }));
      },
      async funnel(scope, from, before) {
        const { rows } = await db.query<Row>(
          `SELECT count(*) AS opened,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM payments p WHERE p.checkout_session_id = s.id)) AS attempted,
                  count(*) FILTER (WHERE s.status = 'complete') AS paid
           FROM checkout_sessions s WHERE s.account_id = $1 AND s.mode = $2 AND s.created_at >= $3 AND s.created_at < $4`,
          [scope.accountId, scope.mode, from, before],
        );
        const row = rows[0]!;
        return { opened: Number(row.opened), attempted: Number(row.attempted), paid: Number(row.paid) };
      },
    },
  };
}

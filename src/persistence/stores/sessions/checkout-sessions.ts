import { checkoutSessions, type CheckoutSession } from '../../../domain/sessions/entities';
import { columnsOf } from '../../resource-rows';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { auditFields } from '../team/audit-log';
import { runShared, type SharedStatement } from '../../shared-statement';
import type { AuditEntry } from '../../../domain/team/entities';
import { scopedListQuery } from '../../list-query';
import { assignments, fieldValues, record, recordPart, recordSet, scopeClause, toSession, type Row } from '../../rows';

/** The columns a session's updates set, in this order; a new session also sets its fixed ones. */
export const sessionFields = columnsOf(checkoutSessions, 'updated');
const newSessionFields = columnsOf(checkoutSessions);
const sessionColumns = sessionFields.map(([column]) => column);

export function sessionValues(s: CheckoutSession): unknown[] {
  return fieldValues(sessionFields, s);
}

type NewSession = { session: CheckoutSession; audit?: AuditEntry | null };

/** A new session's record: the session, then its audit line (`a_…`; nulls without one). */
const newSessionRecord = record(
  recordPart(newSessionFields, '', ({ session }: NewSession) => session),
  recordPart(auditFields, 'a_', ({ audit }: NewSession) => audit),
);
const newSessionColumns = newSessionFields.map(([column]) => column);
const auditColumns = auditFields.map(([column]) => column);

/**
 * New sessions, each with its audit line when it has one, those created at once in one statement
 * (shared-statement.ts). New rows lock nothing another holds, so alone it is the same statement;
 * one that breaks a constraint fails the statement, and each member is then sent alone.
 */
const insertsSql = `WITH m AS MATERIALIZED (${recordSet(newSessionRecord.columns)}),
   sessions AS (
     INSERT INTO checkout_sessions (${newSessionColumns.join(', ')})
     SELECT ${newSessionColumns.map((column) => `m.${column}`).join(', ')} FROM m),
   audit AS (
     INSERT INTO audit_log (${auditColumns.join(', ')})
     SELECT ${auditColumns.map((column) => `m.a_${column}`).join(', ')} FROM m WHERE m.a_id IS NOT NULL)
   SELECT n FROM m`;

const inserts: SharedStatement<NewSession, void> = {
  shared: insertsSql,
  alone: insertsSql,
  key: ({ session }) => session.id,
  member: newSessionRecord.values,
  answer: () => undefined,
};

/**
 * Sessions read by id outside a transaction (paying reads its session so, as the page does), those
 * read at once in one statement. A member whose session does not exist gets a row of nulls.
 */
const byIdSql = `WITH m AS MATERIALIZED (${recordSet([['id', 'text']])})
   SELECT m.n, s.* FROM m LEFT JOIN checkout_sessions s ON s.id = m.id AND s.id = ANY (ARRAY(SELECT id FROM m))`;

const byId: SharedStatement<string, Row | null> = {
  shared: byIdSql,
  alone: byIdSql,
  key: (id) => id,
  member: (id) => JSON.stringify(id),
  answer: (row) => (row.id === null ? null : row),
  read: true,
};

/** Checkout sessions. */
export function checkoutSessionRepositories(db: SqlExecutor): Pick<UnitOfWork, 'checkoutSessions'> {
  return {
    checkoutSessions: {
      insert: (session, audit) => runShared(db, inserts, { session, audit }),
      async get(scope, id, options = {}) {
        if (!scope && !options.forUpdate) {
          const row = await runShared(db, byId, id);
          return row ? toSession(row) : null;
        }
        const scoped = scopeClause(scope, 2);
        const { rows } = await db.query(`SELECT * FROM checkout_sessions WHERE id = $1${scoped.sql}${options.forUpdate ? ' FOR UPDATE' : ''}`, [
          id,
          ...scoped.params,
        ]);
        return rows[0] ? toSession(rows[0]) : null;
      },
      async update(s, expectedStatus) {
        const values = sessionValues(s);
        const { rowCount } = await db.query(`UPDATE checkout_sessions SET ${assignments(sessionColumns, 3)} WHERE id = $1 AND status = $2`, [
          s.id,
          expectedStatus,
          ...values,
        ]);
        return rowCount === 1;
      },
      async listOpenExpiredBefore(at, limit) {
        // A session a payment holds (a local payment waiting hours for its bank) is not expired, so it
        // is not listed either: it would come back first in every sweep and keep the others out.
        const { rows } = await db.query(
          `SELECT * FROM checkout_sessions s WHERE s.status = 'open' AND s.expires_at <= $1
             AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.checkout_session_id = s.id AND p.status <> 'failed')
           ORDER BY s.expires_at LIMIT $2`,
          [at, limit],
        );
        return rows.map(toSession);
      },
      async list(scope, page) {
        const query = scopedListQuery('checkout_sessions', scope, page);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toSession);
      },
    },
  };
}

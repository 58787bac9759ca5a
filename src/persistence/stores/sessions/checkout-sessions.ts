import { checkoutSessions, type CheckoutSession } from '../../../domain/sessions/entities';
import { columnsOf } from '../../resource-rows';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { auditFields } from '../team/audit-log';
import { insertInto, runShared, sharedInsert } from '../../shared-statement';
import type { AuditEntry } from '../../../domain/team/entities';
import { scopedListQuery } from '../../list-query';
import { assignments, fieldValues, scopeClause, toSession } from '../../rows';

/** The columns a session's updates set, in this order; a new session also sets its fixed ones. */
export const sessionFields = columnsOf(checkoutSessions, 'updated');
const newSessionFields = columnsOf(checkoutSessions);
const sessionColumns = sessionFields.map(([column]) => column);

export function sessionValues(s: CheckoutSession): unknown[] {
  return fieldValues(sessionFields, s);
}

type NewSession = { session: CheckoutSession; audit?: AuditEntry | null };

/** New sessions, each with its audit line when it has one, those created at once in one statement (shared-statement.ts). */
const inserts = sharedInsert(
  ({ session }: NewSession) => session.id,
  [
    insertInto(checkoutSessions.table, newSessionFields, '', ({ session }: NewSession) => session),
    insertInto('audit_log', auditFields, 'a_', ({ audit }: NewSession) => audit),
  ],
);

/** Checkout sessions. */
export function checkoutSessionRepositories(db: SqlExecutor): Pick<UnitOfWork, 'checkoutSessions'> {
  return {
    checkoutSessions: {
      insert: (session, audit) => runShared(db, inserts, { session, audit }),
      async get(scope, id, options = {}) {
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
        const { rows } = await db.query(`SELECT * FROM checkout_sessions WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`, [at, limit]);
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

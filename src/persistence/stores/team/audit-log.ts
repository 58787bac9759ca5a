import type { AuditEntry } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { Query } from '../../list-query';
import { placeholders, type Row } from '../../rows';

/** An audit line's insert, its values (`auditValues(entry)`) from parameter $`first` on. */
export const insertAuditSql = (first = 1) => `INSERT INTO audit_log (id, account_id, mode, actor_type, actor_id, actor_label, ip, action, target, at)
  VALUES (${placeholders(first, 10)})`;

const insertAudit = insertAuditSql();

export const auditValues = (e: AuditEntry): unknown[] => [e.id, e.accountId, e.mode, e.actor.type, e.actor.id, e.actor.label, e.actor.ip, e.action, e.target, e.at];

const toAuditEntry = (row: Row): AuditEntry => ({
  id: row.id,
  accountId: row.account_id,
  mode: row.mode,
  actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label, ip: row.ip },
  action: row.action,
  target: row.target,
  at: new Date(row.at),
});

/** The audit log: written with the action it records, listed newest first. */
export function auditLogRepositories(db: SqlExecutor): Pick<UnitOfWork, 'auditLog'> {
  return {
    auditLog: {
      async insert(e) {
        await db.query(insertAudit, auditValues(e));
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
  };
}

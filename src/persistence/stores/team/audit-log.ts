import type { AuditEntry } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { write, type SqlExecutor } from '../../sql-client';
import { Query } from '../../list-query';
import type { Row } from '../../rows';

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
  };
}

import type { AuditEntry } from '../../../domain/team/entities';
import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { Query } from '../../list-query';
import { fieldValues, placeholders, type Field, type Row } from '../../rows';

/** An audit line's columns, as it is written from a JSON record (`recordPart`). */
export const auditFields: readonly Field<AuditEntry>[] = [
  ['id', 'text', (e) => e.id],
  ['account_id', 'text', (e) => e.accountId],
  ['mode', 'text', (e) => e.mode],
  ['actor_type', 'text', (e) => e.actor.type],
  ['actor_id', 'text', (e) => e.actor.id],
  ['actor_label', 'text', (e) => e.actor.label],
  ['ip', 'text', (e) => e.actor.ip],
  ['action', 'text', (e) => e.action],
  ['target', 'text', (e) => e.target],
  ['at', 'timestamptz', (e) => e.at],
];

const insertAudit = `INSERT INTO audit_log (${auditFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, auditFields.length)})`;

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
        await db.query(insertAudit, fieldValues(auditFields, e));
      },
      async list(accountId, page) {
        const q = new Query();
        const scope = `account_id = ${q.param(accountId)}`;
        q.where(scope);
        q.after('audit_log', 'at', page.startingAfter, scope);
        const { rows } = await db.query<Row>(`SELECT * FROM audit_log WHERE ${q.sql} ORDER BY at DESC, id DESC LIMIT ${q.param(page.limit)}`, q.params);
        return rows.map(toAuditEntry);
      },
    },
  };
}

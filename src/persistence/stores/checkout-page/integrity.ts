import type { SqlExecutor } from '../../sql-client';
import type { CheckoutPageBaseline, CheckoutPageChange, CspReport, ScriptNote } from '../../../domain/checkout-page/entities';
import type { CheckoutPageIntegrityRepository } from '../../../domain/checkout-page/ports';
import { Query } from '../../list-query';
import { dateOrNull, type Row } from '../../rows';

const parsed = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
function toBaseline(row: Row): CheckoutPageBaseline {
  return {
    accountId: row.account_id,
    digest: row.digest,
    fingerprint: parsed(row.fingerprint),
    approvedBy: row.approved_by_id ? { id: row.approved_by_id, label: row.approved_by_label } : null,
    approvedAt: new Date(row.approved_at),
  };
}

function toChange(row: Row): CheckoutPageChange {
  return {
    id: row.id,
    accountId: row.account_id,
    baselineDigest: row.baseline_digest,
    digest: row.digest,
    differences: parsed(row.differences),
    detectedAt: new Date(row.detected_at),
    resolvedAt: dateOrNull(row.resolved_at),
    resolution: row.resolution ?? null,
  };
}

function toCspReport(row: Row): CspReport {
  return {
    id: row.id,
    accountId: row.account_id,
    checkoutSessionId: row.checkout_session_id,
    format: row.format,
    directive: row.directive,
    blockedUrl: row.blocked_url,
    documentUrl: row.document_url,
    disposition: row.disposition,
    sample: row.sample,
    sourceFile: row.source_file,
    lineNumber: row.line_number === null ? null : Number(row.line_number),
    userAgent: row.user_agent,
    receivedAt: new Date(row.received_at),
  };
}

/** Newest-first cursor page of an account's rows of `table`, ordered by `timeColumn`. */
async function accountPage(db: SqlExecutor, table: string, timeColumn: string, accountId: string, page: { limit: number; startingAfter?: string }) {
  const q = new Query();
  const scope = `account_id = ${q.param(accountId)}`;
  q.where(scope);
  q.after(table, timeColumn, page.startingAfter, scope);
  const { rows } = await db.query<Row>(`SELECT * FROM ${table} WHERE ${q.sql} ORDER BY ${timeColumn} DESC, id DESC LIMIT ${q.param(page.limit)}`, q.params);
  return rows;
}

export function checkoutPageIntegrityRepository(db: SqlExecutor): CheckoutPageIntegrityRepository {
  return {
    async baseline(accountId, options) {
      const { rows } = await db.query<Row>(`SELECT * FROM checkout_page_baselines WHERE account_id = $1${options?.forUpdate ? ' FOR UPDATE' : ''}`, [
        accountId,
      ]);
      return rows[0] ? toBaseline(rows[0]) : null;
    },
    async saveBaseline(b) {
      await db.query(
        `INSERT INTO checkout_page_baselines (account_id, digest, fingerprint, approved_by_id, approved_by_label, approved_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id) DO UPDATE SET digest = $2, fingerprint = $3, approved_by_id = $4, approved_by_label = $5, approved_at = $6`,
        [b.accountId, b.digest, JSON.stringify(b.fingerprint), b.approvedBy?.id ?? null, b.approvedBy?.label ?? null, b.approvedAt],
      );
    },
    async saveFirstBaseline(b) {
      const { rowCount } = await db.query(
        `INSERT INTO checkout_page_baselines (account_id, digest, fingerprint, approved_by_id, approved_by_label, approved_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id) DO NOTHING`,
        [b.accountId, b.digest, JSON.stringify(b.fingerprint), b.approvedBy?.id ?? null, b.approvedBy?.label ?? null, b.approvedAt],
      );
      return rowCount > 0;
    },
    async accountsToCompare(digest, limit) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT a.id FROM accounts a
         LEFT JOIN checkout_page_baselines b ON b.account_id = a.id
         LEFT JOIN checkout_page_changes c ON c.account_id = a.id AND c.resolved_at IS NULL
         WHERE b.account_id IS NULL
            OR (b.digest <> $1 AND (c.id IS NULL OR c.digest <> $1))
            OR (b.digest = $1 AND c.id IS NOT NULL)
         ORDER BY a.id LIMIT $2`,
        [digest, limit],
      );
      return rows.map((row) => row.id);
    },
    async openChange(accountId) {
      const { rows } = await db.query<Row>('SELECT * FROM checkout_page_changes WHERE account_id = $1 AND resolved_at IS NULL', [accountId]);
      return rows[0] ? toChange(rows[0]) : null;
    },
    async insertChange(c) {
      await db.query(
        `INSERT INTO checkout_page_changes (id, account_id, baseline_digest, digest, differences, detected_at, resolved_at, resolution)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [c.id, c.accountId, c.baselineDigest, c.digest, JSON.stringify(c.differences), c.detectedAt, c.resolvedAt, c.resolution],
      );
    },
    async resolveOpenChanges(accountId, at, resolution) {
      const { rowCount } = await db.query('UPDATE checkout_page_changes SET resolved_at = $2, resolution = $3 WHERE account_id = $1 AND resolved_at IS NULL', [
        accountId,
        at,
        resolution,
      ]);
      return rowCount;
    },
    async listChanges(accountId, page) {
      return (await accountPage(db, 'checkout_page_changes', 'detected_at', accountId, page)).map(toChange);
    },
    async insertCspReport(r: CspReport) {
      await db.query(
        `INSERT INTO csp_reports (id, account_id, checkout_session_id, format, directive, blocked_url, document_url, disposition,
           sample, source_file, line_number, user_agent, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          r.id,
          r.accountId,
          r.checkoutSessionId,
          r.format,
          r.directive,
          r.blockedUrl,
          r.documentUrl,
          r.disposition,
          r.sample,
          r.sourceFile,
          r.lineNumber,
          r.userAgent,
          r.receivedAt,
        ],
      );
    },
    async listCspReports(accountId, page) {
      return (await accountPage(db, 'csp_reports', 'received_at', accountId, page)).map(toCspReport);
    },
    async purgeCspReportsBefore(at) {
      return (await db.query('DELETE FROM csp_reports WHERE received_at < $1', [at])).rowCount;
    },
    async notes(accountId) {
      const { rows } = await db.query<Row>('SELECT * FROM checkout_page_script_notes WHERE account_id = $1 ORDER BY script_id', [accountId]);
      return rows.map(
        (row): ScriptNote => ({
          accountId: row.account_id,
          scriptId: row.script_id,
          note: row.note,
          updatedBy: row.updated_by,
          updatedAt: new Date(row.updated_at),
        }),
      );
    },
    async saveNote(n) {
      if (!n.note) {
        await db.query('DELETE FROM checkout_page_script_notes WHERE account_id = $1 AND script_id = $2', [n.accountId, n.scriptId]);
        return;
      }
      await db.query(
        `INSERT INTO checkout_page_script_notes (account_id, script_id, note, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, script_id) DO UPDATE SET note = $3, updated_by = $4, updated_at = $5`,
        [n.accountId, n.scriptId, n.note, n.updatedBy, n.updatedAt],
      );
    },
  };
}

/**
 * Row mappers read by more than one store, and the small SQL helpers every store shares. This file
 * imports no store: stores import it, and sql-store.ts composes the stores.
 */
import { payments, refunds } from '../domain/payments/entities';
import type { Scope } from '../domain/shared/scope';
import type { ApiKey } from '../domain/team/entities';
import { checkoutSessions } from '../domain/sessions/entities';
import { rowReader, type Field, type Row } from './resource-rows';

export type { Field, Row } from './resource-rows';

export const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
export const num = (value: unknown) => Number(value);

/** `entity`'s values for `fields`, as the driver takes them (JSON columns as text). */
export function fieldValues<T>(fields: readonly Field<T>[], entity: T): unknown[] {
  return fields.map(([, type, value]) => (type === 'jsonb' ? json(value(entity)) : value(entity)));
}

/** A column of a JSON record set: its name and SQL type. */
export type RecordColumn = readonly [name: string, type: string];

/**
 * Rows from `$1`, a JSON array of records, each a JSON array: its position `n`, then its values in
 * the order of `columns` (`RecordPart.values`). Positional arrays, not objects: PostgreSQL reads them
 * without the keys, which were a third of the bytes and most of the parsing (docs/performance.md).
 * A JSON null is SQL NULL, in JSON columns too.
 */
export function recordSet(columns: readonly RecordColumn[]): string {
  const read = ([name, type]: RecordColumn, k: number) =>
    type === 'jsonb' ? `NULLIF(r->${k}, 'null') AS ${name}` : type === 'text' ? `r->>${k} AS ${name}` : `(r->>${k})::${type} AS ${name}`;
  return `SELECT ${[['n', 'int'] as const, ...columns].map(read).join(', ')} FROM jsonb_array_elements($1::jsonb) AS r`;
}

/**
 * `entity`'s values for `fields` (all null without one), appended to `into` for one
 * `JSON.stringify` of a whole record (`RecordPart.values`): JSON as is, undefined as null. Dates become ISO
 * text first: `JSON.stringify` spends about twice as long on a date (its `toJSON`) as
 * `toISOString` does (docs/performance.md).
 */
function collectValues<T>(fields: readonly Field<T>[], entity: T | null | undefined, into: unknown[]): void {
  if (entity === null || entity === undefined) {
    for (let i = 0; i < fields.length; i++) into.push(null);
    return;
  }
  for (const [, , value] of fields) {
    const v = value(entity);
    into.push(v instanceof Date ? v.toISOString() : v);
  }
}

/** Part of a record: `fields` under `prefix`, of what `of` gives for a member (nothing: nulls). */
export interface RecordPart<M> {
  readonly columns: RecordColumn[];
  /** A member's values, in the order of `columns`, appended to `into`. */
  collect(member: M, into: unknown[]): void;
  /** A member's values as elements of its record's JSON array: one `JSON.stringify` for the whole record. */
  values(member: M): string;
}

function part<M>(columns: RecordColumn[], collect: (member: M, into: unknown[]) => void): RecordPart<M> {
  return {
    columns,
    collect,
    values: (member) => {
      const values: unknown[] = [];
      collect(member, values);
      return JSON.stringify(values).slice(1, -1);
    },
  };
}

export function recordPart<M, T>(fields: readonly Field<T>[], prefix: string, of: (member: M) => T | null | undefined): RecordPart<M> {
  const columns = fields.map(([column, type]): RecordColumn => [prefix + column, type]);
  return part(columns, (member, into) => collectValues(fields, of(member), into));
}

/** A record of `parts`, one after another: its columns for `recordSet`, a member's values for its array. */
export function record<M>(...parts: RecordPart<M>[]): RecordPart<M> {
  return part(
    parts.flatMap((each) => each.columns),
    (member, into) => {
      for (const each of parts) each.collect(member, into);
    },
  );
}

export const dateOrNull = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

export function scopeClause(scope: Scope | null, firstParam: number): { sql: string; params: unknown[] } {
  if (!scope) return { sql: '', params: [] };
  return { sql: ` AND account_id = $${firstParam} AND mode = $${firstParam + 1}`, params: [scope.accountId, scope.mode] };
}

export const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

export const assignments = (columns: readonly string[], from: number) => columns.map((column, i) => `${column} = $${from + i}`).join(', ');

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}

export function toApiKey(row: Row): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    kind: row.kind,
    prefix: row.prefix,
    secretHash: row.secret_hash,
    last4: row.last4,
    createdAt: new Date(row.created_at),
    lastUsedAt: dateOrNull(row.last_used_at),
    revokedAt: dateOrNull(row.revoked_at),
    name: row.name ?? '',
    expiresAt: dateOrNull(row.expires_at),
    permissions: row.permissions ?? null,
  };
}

/** A checkout session's row, read as its definition says (resource-rows.ts). */
export const toSession = rowReader(checkoutSessions);

/** A payment's row, read as its definition says (resource-rows.ts). */
export const toPayment = rowReader(payments);

/** A refund's row, read as its definition says (resource-rows.ts). */
export const toRefund = rowReader(refunds);

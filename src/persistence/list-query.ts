import type { PageRequest } from '../domain/shared/pagination';
import type { Scope } from '../domain/shared/scope';

/** A condition on a column of our own choosing (never a name from the request). */
export interface ListFilter {
  column: string;
  /** `any`: the column equals one of `value`'s elements (an array). */
  op?: '=' | '>=' | '<=' | 'any';
  value: unknown;
}

/**
 * The one SQL shape of every API list: the scope's rows, filtered, newest first by
 * (created_at, id), after the cursor row, `page.limit` of them. The cursor is looked up in the same
 * scope, so another account's id pages nothing.
 */
export function scopedListQuery(table: string, scope: Scope, page: PageRequest, filters: readonly ListFilter[] = []): { text: string; params: unknown[] } {
  const q = new Query();
  const scopeSql = scoped(q, scope);
  for (const filter of filters) {
    q.where(filter.op === 'any' ? `${filter.column} = ANY(${q.param(filter.value)})` : `${filter.column} ${filter.op ?? '='} ${q.param(filter.value)}`);
  }
  q.after(table, 'created_at', page.startingAfter, scopeSql);
  return { text: `SELECT * FROM ${table} WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(page.limit)}`, params: q.params };
}

/** One row of `table` by id, within the scope: another account's id reads as absent. */
export function scopedGetQuery(table: string, scope: Scope, id: string): { text: string; params: unknown[] } {
  return { text: `SELECT * FROM ${table} WHERE id = $1 AND account_id = $2 AND mode = $3`, params: [id, scope.accountId, scope.mode] };
}

/**
 * Newest-first keyset paging: rows strictly after the cursor row in (`time`, id) order, within the
 * same scope conditions, so a cursor from another account or mode matches nothing.
 */
export class Query {
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

/** Adds the scope's conditions to `query`, and returns them (for `after`). */
export function scoped(query: Query, scope: Scope): string {
  const sql = `account_id = ${query.param(scope.accountId)} AND mode = ${query.param(scope.mode)}`;
  query.where(sql);
  return sql;
}

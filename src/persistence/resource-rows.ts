/**
 * A resource's rows, derived from its one definition (src/domain/shared/resource-shape.ts): the row
 * mapper and the columns its inserts and updates write. A store names none of its resource's
 * fields; it adds only what its statements do beyond "write this entity" and "read it back".
 */
import { columnOf, type EntityOf, type FieldKind, type ResourceDefinition } from '../domain/shared/resource-shape';

// biome-ignore lint/suspicious/noExplicitAny: a row as the driver answers it; each store's mapper reads its columns by name and converts them (num, dateOrNull, json).
export type Row = Record<string, any>;

/** A column an entity is written to: its name, its SQL type, and the entity's value for it. */
export type Field<T> = readonly [column: string, type: string, value: (entity: T) => unknown];

const sqlTypes: Record<FieldKind, string> = {
  text: 'text',
  integer: 'bigint',
  decimal: 'numeric',
  boolean: 'boolean',
  timestamp: 'timestamptz',
  json: 'jsonb',
};

/**
 * The columns a resource's rows are written with: all of them, or only those an update changes (not
 * the fixed ones, nor those only a claim of their own writes).
 */
export function columnsOf<R extends ResourceDefinition>(definition: R, which: 'all' | 'updated' = 'all'): readonly Field<EntityOf<R>>[] {
  return Object.entries(definition.fields)
    .filter(([, def]) => which === 'all' || !(def.spec.fixed || def.spec.claimed))
    .map(([name, def]) => [columnOf(name, def), sqlTypes[def.spec.kind], (entity: EntityOf<R>) => (entity as Record<string, unknown>)[name]] as const);
}

/** A value for a missing column, a copy when it is an object so no two entities share it. */
const fresh = (missing: unknown) => (missing === undefined ? null : typeof missing === 'object' && missing !== null ? structuredClone(missing) : missing);

/**
 * A reader of the resource's rows as the driver answers them (a `SELECT *`, or `RETURNING *`); with
 * a `prefix`, of its columns selected beside another table's, each as `<prefix><column>`.
 */
export function rowReader<R extends ResourceDefinition>(definition: R, prefix = ''): (row: Row) => EntityOf<R> {
  const readers = Object.entries(definition.fields).map(([name, def]) => {
    const column = prefix + columnOf(name, def);
    const { kind, missing } = def.spec;
    const convert =
      kind === 'integer' || kind === 'decimal' ? Number : kind === 'timestamp' ? (value: unknown) => new Date(value as string) : (value: unknown) => value;
    return (row: Row, into: Record<string, unknown>) => {
      const value = row[column];
      into[name] = value === null || value === undefined ? fresh(missing) : convert(value);
    };
  });
  return (row) => {
    const entity: Record<string, unknown> = {};
    for (const read of readers) read(row, entity);
    return entity as EntityOf<R>;
  };
}

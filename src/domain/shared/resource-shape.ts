/*
 * One definition per resource. A resource's stored fields are written once, in a `defineResource`
 * call next to its rules: each field's type, whether it may be null, its column, and its name in the
 * API (or that the API does not show it). Everything else derives from that one list:
 *
 * - the entity type (`EntityOf`), which the rules work on;
 * - the row mapper and the insert/update column lists (src/persistence/resource-rows.ts);
 * - the API object and event snapshot (`apiFieldsOf` here, spread into the resource's snapshot);
 * - the zod response schema (src/http/resource-schema.ts), so the OpenAPI document, the SDK's
 *   generated types and the dashboard's types.
 *
 * A plain stored field the API shows is therefore added in its migration, its definition and the rule
 * that sets it. A field whose API shape differs from its stored value is marked `internal()` here and
 * shaped by hand, once, in the resource's snapshot and schema.
 */

/** How a field is stored and shown. */
export type FieldKind = 'text' | 'integer' | 'decimal' | 'boolean' | 'timestamp' | 'json';

/** What a field is, as the derivations read it. */
export interface FieldSpec {
  readonly kind: FieldKind;
  readonly nullable: boolean;
  /** Set when the row is made and never changed after (ids, owner, mode, creation time). */
  readonly fixed: boolean;
  /**
   * Changed only by a statement of its own that claims it (a notice or an email sent once), never
   * by the entity's update: a copy of the entity read before the claim cannot write it back.
   */
  readonly claimed?: boolean;
  /** The values a text field may hold, when it is an enumeration. */
  readonly values?: readonly string[];
  /** Its column, when it is not the snake_case of its name. */
  readonly column?: string;
  /** Its API name when it is not the snake_case of its name; `false`: the API does not show it. */
  readonly api?: string | false;
  /** The value a row made before the column existed reads as (its column is null). */
  readonly missing?: unknown;
  /** A currency code: stored upper case, shown lower case like Stripe's. */
  readonly currency?: boolean;
  /** One line for the API reference. */
  readonly description?: string;
  /** A value for the API reference's example, when the kind's default would not read well. */
  readonly example?: unknown;
  /** Values the API reference shows beside the field itself. */
  readonly examples?: readonly unknown[];
}

/**
 * One field of a resource: `T` is its value in the entity, `A` its API name (`undefined`: the
 * snake_case of its name; `false`: not shown). Each method answers a new field.
 */
export class Field<T, A extends string | false | undefined = undefined> {
  declare readonly _value: T;
  declare readonly _api: A;
  constructor(readonly spec: FieldSpec) {}
  /** May be null. */
  nullable(): Field<T | null, A> {
    return new Field({ ...this.spec, nullable: true });
  }
  /** Set at creation, never updated. */
  fixedAtCreation(): Field<T, A> {
    return new Field({ ...this.spec, fixed: true });
  }
  /** Changed only by its own claiming statement, never by the entity's update (`FieldSpec.claimed`). */
  writtenByClaim(): Field<T, A> {
    return new Field({ ...this.spec, claimed: true });
  }
  /** Not shown by the API (or shown only in a shape written by hand in the resource's snapshot). */
  internal(): Field<T, false> {
    return new Field({ ...this.spec, api: false });
  }
  /** Shown under another name than the snake_case of its own. */
  shownAs<N extends string>(name: N): Field<T, N> {
    return new Field({ ...this.spec, api: name });
  }
  /** Stored in a column not named the snake_case of its own. */
  column(name: string): Field<T, A> {
    return new Field({ ...this.spec, column: name });
  }
  /** What a row made before the column existed reads as. */
  whenMissing(value: T): Field<T, A> {
    return new Field({ ...this.spec, missing: value });
  }
  /** One line for the API reference. */
  describe(description: string): Field<T, A> {
    return new Field({ ...this.spec, description });
  }
  /** A value for the API reference's example. */
  exampleValue(example: unknown): Field<T, A> {
    return new Field({ ...this.spec, example });
  }
  /** Values the API reference shows beside the field (the first one also in the resource's example). */
  examples(...values: [T, ...T[]]): Field<T, A> {
    return new Field({ ...this.spec, example: values[0], examples: values });
  }
}

const kind = <T>(of: FieldKind, more: Partial<FieldSpec> = {}) => new Field<T>({ kind: of, nullable: false, fixed: false, ...more });

/** The field kinds. */
export const field = {
  text: <T extends string = string>() => kind<T>('text'),
  /** One of `values`. */
  oneOf: <const V extends readonly string[]>(values: V) => kind<V[number]>('text', { values }),
  /** A three-letter currency code, stored upper case and shown lower case. */
  currency: () => kind<string>('text', { currency: true }),
  /** A whole number; amounts are in the currency's minor unit. */
  integer: () => kind<number>('integer'),
  /** A number with a fixed count of decimals (a percentage), stored as `numeric`. */
  decimal: () => kind<number>('decimal'),
  boolean: () => kind<boolean>('boolean'),
  /** A moment; the API shows it as seconds since the epoch. */
  timestamp: () => kind<Date>('timestamp'),
  /** A value kept as JSON, shown as is unless marked `internal()`. */
  json: <T>() => kind<T>('json'),
};

export type AnyField = Field<unknown, string | false | undefined>;
export type Fields = Record<string, AnyField>;

/** A resource: its table, and its fields in the order they are stored and shown. */
export interface ResourceDefinition<F extends Fields = Fields> {
  readonly table: string;
  readonly fields: F;
  /** Worked out once, not per object: the fields the API shows, in order, with their API names. */
  readonly shown: ReadonlyArray<readonly [name: string, apiName: string, def: AnyField]>;
  /** Worked out once: every field that may be null, null. */
  readonly blank: Readonly<Record<string, null>>;
}

export function defineResource<const F extends Fields>(table: string, fields: F): ResourceDefinition<F> {
  const shown: Array<readonly [string, string, AnyField]> = [];
  const blank: Record<string, null> = {};
  for (const [name, def] of Object.entries(fields)) {
    const apiName = apiNameOf(name, def);
    if (apiName !== null) shown.push([name, apiName, def]);
    if (def.spec.nullable) blank[name] = null;
  }
  return { table, fields, shown, blank: Object.freeze(blank) };
}

/**
 * A part of a resource kept inside one of its JSON fields (the bank a payment was made from): its
 * fields written once, as a resource's are, with no table of its own. Its API fields
 * (`apiFieldsOrBlank`) and its schema (`partFieldsSchema` in src/http/resource-schema.ts) derive
 * from it.
 */
export function definePart<const F extends Fields>(fields: F): ResourceDefinition<F> {
  return defineResource('', fields);
}

/** `camelCase` as `snake_case`. */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

type ValueOf<D> = D extends Field<infer T, string | false | undefined> ? T : never;

/** The entity a definition describes: each field's value by its name. */
export type EntityOf<R extends ResourceDefinition> = { -readonly [K in keyof R['fields']]: ValueOf<R['fields'][K]> };

type ApiNameOf<K extends string, D> = D extends Field<unknown, infer A> ? (A extends false ? never : A extends string ? A : Snake<K>) : never;

/** How the API shows a value of this kind: times as seconds since the epoch. */
type ApiValueOf<D> = D extends Field<infer T, string | false | undefined> ? ApiValue<T> : never;
type ApiValue<T> = T extends Date ? number : T;

/** The fields the API shows, by their API names. */
export type ApiFieldsOf<R extends ResourceDefinition> = {
  -readonly [K in keyof R['fields'] & string as ApiNameOf<K, R['fields'][K]>]: ApiValueOf<R['fields'][K]>;
};

/** The column a field is stored in. */
export const columnOf = (name: string, def: AnyField) => def.spec.column ?? snakeCase(name);

/** The API name a field is shown under, or null when the API does not show it. */
export const apiNameOf = (name: string, def: AnyField) => (def.spec.api === false ? null : (def.spec.api ?? snakeCase(name)));

/** The value the API shows for a field's value. */
export function apiValueOf(def: AnyField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (def.spec.kind === 'timestamp') return Math.floor((value as Date).getTime() / 1000);
  if (def.spec.currency) return (value as string).toLowerCase();
  return value;
}

/** The fields of `entity` the API shows, under their API names, in the definition's order. */
export function apiFieldsOf<R extends ResourceDefinition>(definition: R, entity: EntityOf<R>): ApiFieldsOf<R> {
  return showInto({}, definition, entity) as ApiFieldsOf<R>;
}

/** A part's API fields as `apiFieldsOf` shows them; every one null when the part is missing. */
export function apiFieldsOrBlank<R extends ResourceDefinition>(definition: R, entity: EntityOf<R> | null): OrBlank<ApiFieldsOf<R>> {
  if (entity) return showInto({}, definition, entity) as OrBlank<ApiFieldsOf<R>>;
  return Object.fromEntries(definition.shown.map(([, apiName]) => [apiName, null])) as OrBlank<ApiFieldsOf<R>>;
}

/** Each field, or null. */
export type OrBlank<T> = { [K in keyof T]: T[K] | null };

/** Sets on `target` every field the definition shows, by its API name. */
function showInto(target: Record<string, unknown>, definition: ResourceDefinition, entity: object): Record<string, unknown> {
  for (const [name, apiName, def] of definition.shown) target[apiName] = apiValueOf(def, (entity as Record<string, unknown>)[name]);
  return target;
}

/**
 * The API object of a resource that has an id and a mode: `id`, `object`, `livemode`, then the
 * fields its definition shows, in order. The resource's snapshot adds the fields it shapes by hand.
 */
export function apiObjectOf<O extends string, R extends ResourceDefinition>(
  object: O,
  definition: R,
  entity: EntityOf<R> & { id: string; mode: 'test' | 'live' },
): { id: string; object: O; livemode: boolean } & ApiFieldsOf<R> {
  return showInto({ id: entity.id, object, livemode: entity.mode === 'live' }, definition, entity) as {
    id: string;
    object: O;
    livemode: boolean;
  } & ApiFieldsOf<R>;
}

type NullableKeys<R extends ResourceDefinition> = {
  [K in keyof R['fields']]: null extends ValueOf<R['fields'][K]> ? K : never;
}[keyof R['fields']];

/**
 * What a new entity starts from: every field that may be null, null. A rule that makes one sets the
 * rest, so a field added as nullable needs no change to the rules that do not set it.
 */
export function blankOf<R extends ResourceDefinition>(definition: R): { [K in NullableKeys<R>]: null } {
  return definition.blank as { [K in NullableKeys<R>]: null };
}

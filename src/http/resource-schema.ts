import { z } from 'zod';
import { apiNameOf, type AnyField, type ApiFieldsOf, type OrBlank, type ResourceDefinition } from '../domain/shared/resource-shape';

/*
 * A resource's response schema, derived from its one definition (src/domain/shared/resource-shape.ts):
 * `id`, `object` and `livemode`, then each field the API shows, typed by its kind, then the fields
 * the resource's snapshot shapes by hand. The OpenAPI document, the SDK's generated types and the
 * dashboard's types come from these schemas.
 */

/** The schema of each shown field, by its API name. */
type DerivedShape<R extends ResourceDefinition> = { [K in keyof ApiFieldsOf<R>]-?: z.ZodType<ApiFieldsOf<R>[K]> };

const unixSeconds = z.number().int();

/** The schema of a field of a kind that is not JSON. */
function kindSchema(def: AnyField): z.ZodType {
  const { kind, values, currency } = def.spec;
  switch (kind) {
    case 'text':
      if (values) return z.enum(values as [string, ...string[]]);
      return currency ? z.string().meta({ description: 'Three-letter ISO 4217 code, lower case.', examples: ['usd'] }) : z.string();
    case 'integer':
      return z.number().int();
    case 'decimal':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'timestamp':
      return unixSeconds;
    case 'json':
      throw new Error('a JSON field the API shows needs its schema');
  }
}

/** An example value for a field, for the API reference, when the resource's example leaves it out. */
function exampleOf(def: AnyField): unknown {
  const { kind, values, nullable, example } = def.spec;
  if (example !== undefined) return example;
  if (nullable) return null;
  if (values) return values[0];
  return { text: '', integer: 0, decimal: 0, boolean: false, timestamp: 1767225600, json: null }[kind];
}

export interface ResourceSchemaOptions<R extends ResourceDefinition, C extends z.core.$ZodLooseShape> {
  /** The API reference's name for it (`CheckoutSession`) and one line about it. */
  id: string;
  description: string;
  /** The id prefix, for the reference (`cs_`). */
  prefix: string;
  /** The schema of each JSON field the API shows, by the field's name (its kind says too little). */
  json: Partial<Record<keyof R['fields'], z.ZodType>>;
  /** The fields the resource's snapshot shapes by hand, by their API names. */
  shaped: C;
  /** An example object for the reference; a field it leaves out takes its definition's example. */
  example: Record<string, unknown> & { id: string };
}

/**
 * The schema of each field a definition shows but `id`, by its API name, and each one's example:
 * `given`'s when it has one, else its definition's.
 */
function shownFields(
  name: string,
  definition: ResourceDefinition,
  json: Partial<Record<string, z.ZodType>>,
  given: Record<string, unknown>,
  everyFieldNullable = false,
) {
  const shape: Record<string, z.ZodType> = {};
  const example: Record<string, unknown> = {};
  for (const [field, def] of Object.entries(definition.fields) as [string, AnyField][]) {
    const apiName = apiNameOf(field, def);
    if (apiName === null || apiName === 'id') continue;
    const schemaOfJson = json[field];
    if (def.spec.kind === 'json' && !schemaOfJson) throw new Error(`${name}.${apiName}: a JSON field the API shows needs its schema`);
    let schema = schemaOfJson ?? kindSchema(def);
    if ((def.spec.nullable || everyFieldNullable) && !schemaOfJson) schema = schema.nullable();
    const { description, examples } = def.spec;
    if (description || examples) schema = schema.meta({ ...(description ? { description } : {}), ...(examples ? { examples: [...examples] } : {}) });
    shape[apiName] = schema;
    example[apiName] = apiName in given ? given[apiName] : exampleOf(def);
  }
  return { shape, example };
}

const idSchema = (prefix: string, example: string) => z.string().meta({ description: `Object id, \`${prefix}…\`.`, examples: [example] });

/** The strict response schema of a resource with an id and a mode. */
export function resourceSchema<O extends string, R extends ResourceDefinition, C extends z.core.$ZodLooseShape>(
  object: O,
  definition: R,
  options: ResourceSchemaOptions<R, C>,
) {
  const derived = shownFields(options.id, definition, options.json, options.example);
  const example: Record<string, unknown> = { id: options.example.id, object, livemode: false, ...derived.example };
  for (const key of Object.keys(options.shaped)) example[key] = options.example[key];
  return z
    .strictObject({
      id: idSchema(options.prefix, options.example.id),
      object: z.literal(object),
      livemode: z.boolean().meta({ description: 'True in live mode, false in test mode.' }),
      ...(derived.shape as Omit<DerivedShape<R>, 'id'>),
      ...options.shaped,
    })
    .meta({ id: options.id, description: options.description, examples: [example] });
}

/**
 * The strict schema of a part of a resource that has a definition of its own, an id and no mode (a
 * dispute's evidence): `id`, then each field the API shows, as the resource's snapshot shows them
 * with `apiFieldsOf`.
 */
export function partSchema<R extends ResourceDefinition>(
  name: string,
  definition: R,
  options: { prefix: string; exampleId: string; json: Partial<Record<keyof R['fields'], z.ZodType>> },
) {
  const derived = shownFields(name, definition, options.json, {});
  return z.strictObject({ id: idSchema(options.prefix, options.exampleId), ...(derived.shape as Omit<DerivedShape<R>, 'id'>) });
}

/**
 * The strict schema of a part kept in a resource's JSON field (`definePart`), as the resource's
 * snapshot shows it with `apiFieldsOrBlank`: each field the API shows, null when the part is missing.
 */
export function partFieldsSchema<R extends ResourceDefinition>(name: string, definition: R) {
  const derived = shownFields(name, definition, {}, {}, true);
  return z.strictObject(derived.shape as { [K in keyof ApiFieldsOf<R>]-?: z.ZodType<OrBlank<ApiFieldsOf<R>>[K]> });
}

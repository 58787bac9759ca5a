import type { Mode } from '../../domain/shared/events';
import { unixTime } from '../../domain/shared/event-payloads';

export { unixTime };

/** What every API object is made of: an id, its mode and when it was made. */
interface Resource {
  id: string;
  mode: Mode;
  createdAt: Date;
}

/**
 * An API object: `id`, `object`, `livemode`, then its own `fields`, then `created`, then `after`
 * (the few fields a resource shows after its creation time, such as `updated`). Keys keep that order,
 * which is the order the JSON is written in.
 */
export function resourceView<O extends string, F extends object, A extends object = Record<never, never>>(
  object: O,
  of: Resource,
  fields: F,
  after?: A,
): { id: string; object: O; livemode: boolean } & F & { created: number | null } & A {
  return { id: of.id, object, livemode: of.mode === 'live', ...fields, created: unixTime(of.createdAt), ...(after as A) };
}

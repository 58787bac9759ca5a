import type { DomainEvent } from '../../shared/events';
import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** Reads one event of the scope's account and mode. */
export async function getEvent(deps: Deps, options: { scope: Scope; id: string }): Promise<DomainEvent> {
  const event = await deps.store.read((reader) => reader.events.get(options.scope, options.id));
  if (!event) throw resourceMissing('event', options.id);
  return event;
}

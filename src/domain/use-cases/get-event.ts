import type { DomainEvent } from '../events';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

/** Reads one event of the scope's account and mode. */
export async function getEvent(deps: Deps, options: { scope: Scope; id: string }): Promise<DomainEvent> {
  const event = await deps.store.transaction((tx) => tx.events.get(options.scope, options.id));
  if (!event) throw resourceMissing('event', options.id);
  return event;
}

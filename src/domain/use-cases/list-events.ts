import type { DomainEvent } from '../events';
import { readPage, type Page, type PageRequest } from '../pagination';
import type { Deps, EventFilter, Scope } from '../ports';

/** One page of the scope's events, newest first, filtered by type and creation time. */
export async function listEvents(
  deps: Deps,
  options: { scope: Scope; page: PageRequest; filter: EventFilter },
): Promise<Page<DomainEvent>> {
  return readPage(options.page, (page) =>
    deps.store.transaction((tx) => tx.events.list(options.scope, { ...options.filter, ...page })),
  );
}

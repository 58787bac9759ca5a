import type { DomainEvent } from '../../shared/events';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { EventFilter } from '../ports';

/** One page of the scope's events, newest first, filtered by type and creation time. */
export async function listEvents(deps: Deps, options: { scope: Scope; page: PageRequest; filter: EventFilter }): Promise<Page<DomainEvent>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.events.list(options.scope, { ...options.filter, ...page })));
}

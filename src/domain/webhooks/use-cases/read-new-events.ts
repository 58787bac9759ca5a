import type { DomainEvent } from '../../shared/events';
import { readPage } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/**
 * Where a reader of the scope's events stands: nothing created before `since` is handed out, and
 * `handedOut` holds the ids already handed out within the look-back window (id → created ms).
 */
export interface EventTail {
  since: Date;
  handedOut: Map<string, number>;
}

/**
 * An event's time is taken inside its transaction, which may commit a little after a later one:
 * each read looks back this far behind the newest event seen, so such a straggler is not missed.
 */
export const EVENT_TAIL_LOOKBACK_MS = 10_000;
const PAGE = 100;
const MAX_PAGES = 20;

export function startEventTail(since: Date, after?: DomainEvent): EventTail {
  const handedOut = new Map<string, number>();
  if (after) handedOut.set(after.id, after.createdAt.getTime());
  return { since: after ? after.createdAt : since, handedOut };
}

/**
 * The scope's events created since the tail's position that it has not handed out yet, oldest
 * first; moves the tail past them. Reads the events table, not memory, so it sees the events of
 * every instance sharing the database.
 */
export async function readNewEvents(deps: Deps, options: { scope: Scope; tail: EventTail }): Promise<DomainEvent[]> {
  const { tail } = options;
  const newest = Math.max(0, ...tail.handedOut.values());
  const from = new Date(Math.max(tail.since.getTime(), newest - EVENT_TAIL_LOOKBACK_MS));
  const found: DomainEvent[] = [];
  let startingAfter: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await readPage({ limit: PAGE, startingAfter }, (request) =>
      deps.store.read((reader) => reader.events.list(options.scope, { createdGte: from, ...request })),
    );
    found.push(...page.data);
    if (!page.hasMore || page.data.length === 0) break;
    startingAfter = page.data[page.data.length - 1]!.id;
  }
  const fresh = found.filter((event) => !tail.handedOut.has(event.id)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  for (const event of fresh) tail.handedOut.set(event.id, event.createdAt.getTime());
  const horizon = Math.max(0, ...tail.handedOut.values()) - EVENT_TAIL_LOOKBACK_MS;
  for (const [id, at] of tail.handedOut) if (at < horizon) tail.handedOut.delete(id);
  return fresh;
}

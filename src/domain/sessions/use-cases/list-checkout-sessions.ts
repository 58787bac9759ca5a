import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import { sessionAsOfNow } from '../rules';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';

/** One page of the scope's checkout sessions, newest first. */
export async function listCheckoutSessions(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<CheckoutSession>> {
  const page = await readPage(options.page, (request) => deps.store.readReplica((reader) => reader.checkoutSessions.list(options.scope, request)));
  // Nobody sees an open session past its expires_at: overdue ones are expired as they are read.
  const data = await Promise.all(page.data.map((session) => sessionAsOfNow(deps, session, options.scope)));
  return { data, hasMore: page.hasMore };
}

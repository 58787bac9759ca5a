import type { Refund } from '../entities';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** One page of the scope's refunds, newest first, optionally of one payment. */
export async function listRefunds(deps: Deps, options: { scope: Scope; page: PageRequest; paymentId?: string }): Promise<Page<Refund>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.refunds.list(options.scope, { ...page, paymentId: options.paymentId })));
}

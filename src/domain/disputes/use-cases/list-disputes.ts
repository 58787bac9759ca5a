import type { Dispute } from '../entities';
import type { DisputeStatus } from '../state-machine';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** One page of the scope's disputes, newest first, optionally of one payment or in one status. */
export async function listDisputes(
  deps: Deps,
  options: { scope: Scope; page: PageRequest; paymentId?: string; status?: DisputeStatus },
): Promise<Page<Dispute>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica((reader) => reader.disputes.list(options.scope, { ...page, paymentId: options.paymentId, status: options.status })),
  );
}

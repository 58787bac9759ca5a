import type { Payment } from '../entities';
import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** One page of the scope's payments, newest first, with whether more follow. */
export async function listPayments(deps: Deps, options: { scope: Scope; page: PageRequest; checkoutSessionId?: string }): Promise<Page<Payment>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica((reader) => reader.payments.list(options.scope, { ...page, checkoutSessionId: options.checkoutSessionId })),
  );
}

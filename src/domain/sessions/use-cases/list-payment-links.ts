import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { PaymentLink } from '../entities';

/** One page of the scope's payment links, newest first. */
export async function listPaymentLinks(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<PaymentLink>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.paymentLinks.list(options.scope, page)));
}

import type { PaymentLink } from '../entities';
import { readPage, type Page, type PageRequest } from '../pagination';
import type { Deps, Scope } from '../ports';

/** One page of the scope's payment links, newest first. */
export async function listPaymentLinks(
  deps: Deps,
  options: { scope: Scope; page: PageRequest },
): Promise<Page<PaymentLink>> {
  return readPage(options.page, (page) => deps.store.transaction((tx) => tx.paymentLinks.list(options.scope, page)));
}

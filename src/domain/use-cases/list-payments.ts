import type { Payment } from '../entities';
import { readPage, type Page, type PageRequest } from '../pagination';
import type { Deps, Scope } from '../ports';

/** One page of the scope's payments, newest first, with whether more follow. */
export async function listPayments(
  deps: Deps,
  options: { scope: Scope; page: PageRequest; checkoutSessionId?: string },
): Promise<Page<Payment>> {
  return readPage(options.page, (page) =>
    deps.store.transaction((tx) =>
      tx.payments.list(options.scope, { ...page, checkoutSessionId: options.checkoutSessionId }),
    ),
  );
}

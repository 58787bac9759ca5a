import type { Payment } from '../entities';
import type { Deps, Scope } from '../ports';

/** One page of the scope's payments, newest first, with whether more follow. */
export async function listPayments(
  deps: Deps,
  options: { scope: Scope; limit: number; startingAfter?: string; checkoutSessionId?: string },
): Promise<{ data: Payment[]; hasMore: boolean }> {
  const rows = await deps.store.transaction((tx) =>
    tx.payments.list(options.scope, {
      checkoutSessionId: options.checkoutSessionId,
      startingAfter: options.startingAfter,
      // One extra row tells whether another page exists.
      limit: options.limit + 1,
    }),
  );
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}

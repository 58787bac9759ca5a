import type { Deps } from '../../deps';
import { cancelPayment } from './cancel-payment';

/** An authorization holds the shopper's money for at most this long (design.md §9), then is voided. */
export const AUTHORIZATION_VALIDITY_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Voids authorizations older than seven days that nobody captured, a batch at a time. A payment
 * that fails to void stays `requires_capture` and is tried again on the next run.
 */
export async function voidExpiredAuthorizations(
  deps: Deps,
  options: { batchSize?: number; onError?: (paymentId: string, error: unknown) => void } = {},
): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - AUTHORIZATION_VALIDITY_MS);
  const expired = await deps.store.transaction((tx) => tx.payments.listInStatusCreatedBefore('requires_capture', cutoff, options.batchSize ?? 100));
  let voided = 0;
  for (const payment of expired) {
    try {
      if ((await cancelPayment(deps, { scope: payment, id: payment.id, actor: null })).status === 'canceled') voided += 1;
    } catch (error) {
      options.onError?.(payment.id, error);
    }
  }
  return voided;
}

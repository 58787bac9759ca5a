import type { Dispute } from '../entities';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';

/** How many disputes the inbox shows. */
export const INBOX_LIMIT = 200;

/**
 * The dashboard's Disputes inbox: open disputes by reply-by, soonest first, then closed ones, newest
 * first; or, for a payment's page, that payment's disputes.
 */
export async function listDisputeInbox(deps: Deps, options: { scope: Scope; paymentId?: string }): Promise<Dispute[]> {
  return deps.store.readReplica((reader) =>
    options.paymentId ? reader.disputes.listForPayment(options.scope, options.paymentId) : reader.disputes.inbox(options.scope, INBOX_LIMIT),
  );
}

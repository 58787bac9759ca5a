import { assertTransition, type TransitionTable } from '../payments/state-machine';

export const disputeStatuses = ['needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

/**
 * A dispute's life. The processor decides most moves (a notification or a search reports them);
 * the merchant's own are `needs_response → accepted` and `needs_response → under_review` (submit).
 * Braintree may reopen a dispute under review for more evidence, so that move exists too.
 */
export const disputeTransitions: TransitionTable<DisputeStatus> = {
  needs_response: ['under_review', 'accepted', 'expired', 'won', 'lost'],
  under_review: ['needs_response', 'won', 'lost', 'accepted'],
  won: [],
  lost: [],
  accepted: [],
  expired: [],
};

/** The statuses after which nothing more happens: the money is kept or gone. */
export const closedDisputeStatuses: ReadonlySet<DisputeStatus> = new Set(['won', 'lost', 'accepted', 'expired']);

export function assertDisputeTransition(from: DisputeStatus, to: DisputeStatus): void {
  assertTransition('dispute', disputeTransitions, from, to);
}

export function canMoveDispute(from: DisputeStatus, to: DisputeStatus): boolean {
  return disputeTransitions[from].includes(to);
}

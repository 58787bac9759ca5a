/**
 * The state machines of design.md §4 as plain transition tables. A transition not listed here is a bug,
 * and `assertTransition` throws rather than letting it reach the database.
 */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

export const checkoutSessionStatuses = ['open', 'complete', 'expired'] as const;
export type CheckoutSessionStatus = (typeof checkoutSessionStatuses)[number];

export const checkoutSessionTransitions: TransitionTable<CheckoutSessionStatus> = {
  open: ['complete', 'expired'],
  complete: [],
  expired: [],
};

export const paymentStatuses = ['processing', 'requires_action', 'requires_capture', 'succeeded', 'failed', 'canceled'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentTransitions: TransitionTable<PaymentStatus> = {
  processing: ['requires_action', 'requires_capture', 'succeeded', 'failed'],
  requires_action: ['processing', 'failed'],
  requires_capture: ['succeeded', 'canceled'],
  succeeded: [],
  failed: [],
  canceled: [],
};

export const refundStatuses = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

export const refundTransitions: TransitionTable<RefundStatus> = {
  pending: ['succeeded', 'failed'],
  succeeded: [],
  failed: [],
};

/** Payment states in which a session may not take another attempt: one is under way or has won. */
export const paymentStatusesHoldingSession: readonly PaymentStatus[] = ['processing', 'requires_action', 'requires_capture', 'succeeded', 'canceled'];

export function canTransition<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

export class IllegalTransitionError extends Error {
  constructor(kind: string, from: string, to: string) {
    super(`${kind} cannot go from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition<S extends string>(kind: string, table: TransitionTable<S>, from: S, to: S): void {
  if (!canTransition(table, from, to)) throw new IllegalTransitionError(kind, from, to);
}

export const experimentStatuses = ['draft', 'running', 'stopped'] as const;
export type ExperimentStatusName = (typeof experimentStatuses)[number];

/** An experiment runs once: a stopped one keeps its results and is not restarted (start a new one). */
export const experimentTransitions: TransitionTable<ExperimentStatusName> = {
  draft: ['running', 'stopped'],
  running: ['stopped'],
  stopped: [],
};

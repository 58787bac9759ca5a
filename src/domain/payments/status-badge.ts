import type { Payment } from './entities';
import { paymentStatuses, type PaymentStatus } from './state-machine';

/**
 * What the dashboard calls a payment: its lifecycle status, except that a succeeded payment with
 * money sent back reads `partially_refunded` or `refunded`. Refunds do not move a payment out of
 * `succeeded` (design.md §4) and the merchant API keeps showing `succeeded` with `amount_refunded`,
 * as Stripe does; the badge is for people reading a list. The payments list's status filter and the
 * CSV export's `status` column use the same values, so what a filter picks is what its rows show.
 */
export const paymentStatusBadges = [...paymentStatuses, 'partially_refunded', 'refunded'] as const;
export type PaymentStatusBadge = (typeof paymentStatusBadges)[number];

/** A succeeded payment's badge: by what was refunded of what was captured. */
export function refundBadge(amountCaptured: number, amountRefunded: number): 'succeeded' | 'partially_refunded' | 'refunded' {
  if (amountRefunded <= 0) return 'succeeded';
  return amountRefunded < amountCaptured ? 'partially_refunded' : 'refunded';
}

/**
 * The badge of a payment. Example: captured 5000, refunded 1500 → `partially_refunded`; refunded
 * 5000 → `refunded`; an authorized payment stays `requires_capture`.
 */
export function paymentStatusBadge(payment: Pick<Payment, 'status' | 'amountCaptured' | 'amountRefunded'>): PaymentStatusBadge {
  return payment.status === 'succeeded' ? refundBadge(payment.amountCaptured, payment.amountRefunded) : payment.status;
}

/** The lifecycle status a badge belongs to: every refund badge is a `succeeded` payment. */
export function statusOfBadge(badge: PaymentStatusBadge): PaymentStatus {
  return badge === 'partially_refunded' || badge === 'refunded' ? 'succeeded' : badge;
}

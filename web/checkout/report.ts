/** What failed on the checkout page, for whoever watches errors (Sentry, once wired). */
export type CheckoutFailureKind =
  | 'braintree_client'
  | 'hosted_fields'
  | 'google_pay'
  | 'data_collector'
  | 'three_d_secure';

type Listener = (kind: CheckoutFailureKind, error: unknown) => void;
const listeners = new Set<Listener>();

/** Lets an error reporter receive every checkout failure; returns how to stop. */
export function onCheckoutFailure(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The one place a checkout page failure is reported: a component that did not load, a gateway that
 * did not answer. The shopper is told separately, in plain words; this is for the people who run
 * the shop. Never pass card data in `error`.
 */
export function reportCheckoutFailure(kind: CheckoutFailureKind, error: unknown): void {
  console.warn(`[checkout] ${kind} failed`, error);
  for (const listener of listeners) {
    try {
      listener(kind, error);
    } catch {
      // A broken reporter must not break the page.
    }
  }
}

import { startBrowserReporting, type BrowserReporter } from '../telemetry/browser-reporting';
import type { BrowserReportingConfig } from '../telemetry/browser-reporting';

/**
 * What went wrong on the checkout page that is our problem, not the shopper's: a processor's or a
 * wallet's client library that would not load, a gateway that did not answer, a set-up decline,
 * anything unexpected.
 */
export type CheckoutFailureKind =
  | 'braintree_client'
  | 'hosted_fields'
  | 'google_pay'
  | 'apple_pay'
  | 'paypal'
  | 'venmo'
  | 'local_payment'
  | 'bank_debit'
  | 'data_collector'
  | 'three_d_secure'
  | 'decline_processing_error'
  | 'unexpected';

let reporter: BrowserReporter = { capture: () => undefined, setTag: () => undefined };

/** Starts error reporting for one checkout session's page (a no-op without a DSN). */
export function startCheckoutReporting(config: BrowserReportingConfig, sessionId: string): void {
  reporter = startBrowserReporting(config, { tags: { checkout_session: sessionId, app: 'checkout' } });
}

/**
 * The one place a checkout page failure is reported, with the session id as a tag. The shopper is
 * told separately, in plain words; this is for the people who run the shop. Never throws and never
 * blocks: the page goes on (e.g. without the Google Pay button) whatever happens here. Never pass
 * card data in `error` (the scrubber would remove it, but it should not get there).
 */
export function reportCheckoutFailure(kind: CheckoutFailureKind, error: unknown): void {
  console.warn(`[checkout] ${kind} failed`, error);
  try {
    reporter.capture(error instanceof Error ? error : new Error(`${kind}: ${String(error)}`), { tags: { failure: kind } });
  } catch {
    // Reporting must never break paying.
  }
}

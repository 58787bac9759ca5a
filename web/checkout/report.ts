import { startBrowserReporting, type BrowserReporter } from '../telemetry/browser-reporting';
import type { RuntimeConfig } from '../telemetry/runtime-config';

/**
 * What went wrong on the checkout page that is our problem, not the shopper's: a processor's or a
 * wallet's client library that would not load, a set-up decline, anything unexpected.
 */
export type CheckoutFailureKind =
  | 'braintree_load'
  | 'google_pay_load'
  | 'three_d_secure_load'
  | 'decline_processing_error'
  | 'unexpected'
  | (string & {});

let reporter: BrowserReporter = { capture: () => undefined, setTag: () => undefined };

/** Starts error reporting for one checkout session's page (a no-op without a DSN). */
export function startCheckoutReporting(config: RuntimeConfig['sentry'], sessionId: string): void {
  reporter = startBrowserReporting(config, { tags: { checkout_session: sessionId, app: 'checkout' } });
}

/**
 * Reports a checkout failure with the session id as a tag. Never throws and never blocks: the
 * shopper's page goes on (e.g. without the Google Pay button) whatever happens here.
 */
export function reportCheckoutFailure(kind: CheckoutFailureKind, error: unknown): void {
  try {
    reporter.capture(error instanceof Error ? error : new Error(`${kind}: ${String(error)}`), { tags: { failure: kind } });
  } catch {
    // Reporting must never break paying.
  }
}

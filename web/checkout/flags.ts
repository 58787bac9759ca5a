import { experimentSurfaces } from '../../src/domain/flags/flag-evaluation';

export type CheckoutLayout = (typeof experimentSurfaces.checkout_layout.variants)[number];
export type PayButtonWording = (typeof experimentSurfaces.pay_button_wording.variants)[number];

/** A value the page shows, and the experiment that chose it (to record the exposure). */
export interface Shown<T> {
  value: T;
  experiment: string | null;
}

/** Everything the checkout page reads from flags. */
export interface CheckoutFlags {
  cardEnabled: boolean;
  googlePayEnabled: boolean;
  applePayEnabled: boolean;
  paypalEnabled: boolean;
  venmoEnabled: boolean;
  threeDSecure: string;
  layout: Shown<CheckoutLayout>;
  wording: Shown<PayButtonWording>;
}

export const defaultCheckoutFlags: CheckoutFlags = {
  cardEnabled: true,
  googlePayEnabled: true,
  applePayEnabled: true,
  paypalEnabled: true,
  venmoEnabled: true,
  threeDSecure: 'when_required',
  layout: { value: experimentSurfaces.checkout_layout.default, experiment: null },
  wording: { value: experimentSurfaces.pay_button_wording.default, experiment: null },
};

const reported = new Set<string>();

/** Tells the server the shopper saw an experiment's variant; once per page and key (the server dedupes reloads). */
export function recordExposure(sessionId: string, key: keyof typeof experimentSurfaces): void {
  if (reported.has(key)) return;
  reported.add(key);
  void fetch(`/api/checkout/sessions/${encodeURIComponent(sessionId)}/exposures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => reported.delete(key));
}

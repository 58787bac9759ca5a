import { experimentSurfaces, type ExperimentSurface } from '../../domain/flags/flag-evaluation';
import type { Deps } from '../../domain/deps';
import { defaultCheckoutFlags, type CheckoutFlags, type Shown } from '../../../web/checkout/flags';
import type { CheckoutSession } from '../../domain/sessions/entities';

/**
 * The checkout page's flags for one session, evaluated on the server for the first paint: read
 * through the server's OpenFeature client (`deps.flags`: our flag store, or the external OFREP
 * service when one is configured) with the session id as targeting key, exactly as the page used
 * to ask for them. A flag that cannot be read yields its default (the OpenFeature client already
 * does so); the server enforces the kill switches on every payment anyway.
 *
 * `experiment` tells the page to report an exposure: set when one of our experiments runs on the
 * surface (the exposure endpoint assigns and records the variant itself).
 */
export async function checkoutPageFlags(deps: Pick<Deps, 'flags' | 'store'>, session: CheckoutSession): Promise<CheckoutFlags> {
  const read = {
    bool: (key: string, fallback: boolean) => deps.flags.booleanValue(session, key, fallback, session.id).catch(() => fallback),
    string: (key: string, fallback: string) => deps.flags.stringValue(session, key, fallback, session.id).catch(() => fallback),
  };
  const [cardEnabled, googlePayEnabled, applePayEnabled, paypalEnabled, venmoEnabled, threeDSecure, layout, wording, running] = await Promise.all([
    read.bool('card_enabled', defaultCheckoutFlags.cardEnabled),
    read.bool('google_pay_enabled', defaultCheckoutFlags.googlePayEnabled),
    read.bool('apple_pay_enabled', defaultCheckoutFlags.applePayEnabled),
    read.bool('paypal_enabled', defaultCheckoutFlags.paypalEnabled),
    read.bool('venmo_enabled', defaultCheckoutFlags.venmoEnabled),
    read.string('three_d_secure', defaultCheckoutFlags.threeDSecure),
    read.string('checkout_layout', defaultCheckoutFlags.layout.value),
    read.string('pay_button_wording', defaultCheckoutFlags.wording.value),
    deps.store.read((reader) => reader.experiments.running(session)).catch(() => []),
  ]);
  const shown = <T extends string>(key: ExperimentSurface, value: string, fallback: T): Shown<T> => {
    const allowed = experimentSurfaces[key].variants as readonly string[];
    const experiment = running.find((x) => x.key === key);
    return { value: (allowed.includes(value) ? value : fallback) as T, experiment: experiment ? experiment.id : null };
  };
  return {
    cardEnabled,
    googlePayEnabled,
    applePayEnabled,
    paypalEnabled,
    venmoEnabled,
    threeDSecure,
    layout: shown('checkout_layout', layout, defaultCheckoutFlags.layout.value),
    wording: shown('pay_button_wording', wording, defaultCheckoutFlags.wording.value),
  };
}

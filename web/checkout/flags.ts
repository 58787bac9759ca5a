import { experimentSurfaces } from '../../src/domain/flag-evaluation';

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
  threeDSecure: string;
  layout: Shown<CheckoutLayout>;
  wording: Shown<PayButtonWording>;
}

export const defaultCheckoutFlags: CheckoutFlags = {
  cardEnabled: true,
  googlePayEnabled: true,
  threeDSecure: 'when_required',
  layout: { value: experimentSurfaces.checkout_layout.default, experiment: null },
  wording: { value: experimentSurfaces.pay_button_wording.default, experiment: null },
};

/** How long the page waits for flags before it goes on with the defaults. */
const FLAG_TIMEOUT_MS = 2500;

/**
 * Reads the page's flags through the OpenFeature web SDK and the OFREP provider (one bulk
 * evaluation). The session id is the targeting key: it identifies account and mode to our OFREP
 * endpoint and makes experiment assignment sticky. If the flag service (or the SDK's own chunk) is
 * slow or down, the page opens with the defaults: a flag outage must not stop payments, and the
 * server enforces the kill switches on every payment anyway.
 */
export async function loadCheckoutFlags(sessionId: string, ofrepUrl: string): Promise<CheckoutFlags> {
  const timedOut = new Promise<null>((resolve) => setTimeout(() => resolve(null), FLAG_TIMEOUT_MS));
  const ready = (async () => {
    // Its own chunk, fetched while the session loads: the OpenFeature SDK is not needed to paint.
    const [{ OFREPWebProvider }, { OpenFeature }] = await Promise.all([
      import('@openfeature/ofrep-web-provider'),
      import('@openfeature/web-sdk'),
    ]);
    const provider = new OFREPWebProvider({
      baseUrl: ofrepUrl || window.location.origin,
      // A kill switch must take effect on the next load, so nothing is served from a local cache.
      cacheMode: 'disabled',
      changeDetection: 'none',
      disableVisibilityRefresh: true,
      timeoutMs: FLAG_TIMEOUT_MS,
    });
    await OpenFeature.setProviderAndWait('checkout', provider, { targetingKey: sessionId });
    return OpenFeature;
  })().catch(() => null);
  const OpenFeature = await Promise.race([ready, timedOut]);
  if (!OpenFeature) return defaultCheckoutFlags;

  const client = OpenFeature.getClient('checkout');
  const shown = <T extends string>(key: keyof typeof experimentSurfaces, fallback: T): Shown<T> => {
    const allowed = experimentSurfaces[key].variants as readonly string[];
    const details = client.getStringDetails(key, fallback);
    const value = (allowed.includes(details.value) ? details.value : fallback) as T;
    const experiment = details.reason === 'SPLIT' && typeof details.flagMetadata.experiment === 'string' ? details.flagMetadata.experiment : null;
    return { value, experiment };
  };
  return {
    cardEnabled: client.getBooleanValue('card_enabled', true),
    googlePayEnabled: client.getBooleanValue('google_pay_enabled', true),
    threeDSecure: client.getStringValue('three_d_secure', defaultCheckoutFlags.threeDSecure),
    layout: shown('checkout_layout', defaultCheckoutFlags.layout.value),
    wording: shown('pay_button_wording', defaultCheckoutFlags.wording.value),
  };
}

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

import { reportCheckoutFailure } from '../report';
import type { EarlyHostedFields } from './early-hosted-fields';
import { cjs } from './module-exports';

/** A Hosted Fields instance, as braintree-web documents it (the parts we call). */
export interface HostedFieldsInstance {
  on(event: string, handler: (event: HostedFieldsEvent) => void): void;
  tokenize(options?: {
    fieldsToTokenize?: string[];
    billingAddress?: { postalCode?: string };
  }): Promise<{ nonce: string; details: { cardType?: string; lastFour?: string; bin?: string } }>;
  focus(field: string): void;
  setAttribute(options: { field: string; attribute: string; value: boolean | string }): void;
  removeAttribute(options: { field: string; attribute: string }): void;
  teardown(): Promise<void>;
  /** The fields' state now (events before a listener was added are not replayed). */
  getState(): Pick<HostedFieldsEvent, 'fields' | 'cards'>;
}

export interface HostedFieldsEvent {
  emittedBy: string;
  fields: Record<string, { isEmpty: boolean; isValid: boolean; isPotentiallyValid: boolean; isFocused: boolean }>;
  cards: Array<{ type: string; code?: { size: number } }>;
}

export type HostedFieldsCreate = (options: Record<string, unknown>) => Promise<HostedFieldsInstance>;

export interface GooglePaymentInstance {
  createPaymentDataRequest(overrides: Record<string, unknown>): Record<string, unknown>;
  parseResponse(paymentData: unknown): Promise<{ nonce: string; details?: { cardType?: string; lastFour?: string } }>;
}

export interface ThreeDSecureInstance {
  verifyCard(options: Record<string, unknown>): Promise<{ nonce: string; liabilityShifted?: boolean; liabilityShiftPossible?: boolean }>;
  cancelVerifyCard(): Promise<unknown>;
}

/** The braintree-web components a Braintree checkout needs, each loading on its own. */
export interface BraintreeComponents {
  /** Creates Hosted Fields on the given client (the card form's second engine). */
  hostedFields: Promise<HostedFieldsCreate> | null;
  googlePayment: Promise<GooglePaymentInstance> | null;
  /** braintree-web's client, for a component the page loads on its own (Apple Pay's button loads apple-pay). */
  client: Promise<unknown>;
  /**
   * The three-d-secure component, created on first call (null when cards are not offered). Preloaded
   * with the page when every payment verifies; otherwise loaded only when an issuer asks for it.
   */
  threeDSecure: (() => Promise<ThreeDSecureInstance>) | null;
  /** Device data for fraud checks (data-collector); null when it could not be collected. */
  deviceData: () => Promise<string | null>;
  /**
   * Starts what the page needs only to pay, not to type (data-collector, and three-d-secure when
   * every payment verifies), so it does not compete with the card form for the line.
   */
  warm(): void;
}

/** The first call's promise, for every call; a failed one is retried on the next call. */
function once<T>(create: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= create().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}

/**
 * Loads only the braintree-web components this page uses, each as its own chunk (never the whole
 * package): `client`, `hosted-fields` and `google-payment` at once (the server preloads their chunks
 * with the page), then `data-collector` and `three-d-secure` on that client once `warm()` is called
 * or a payment needs them. A component that fails is reported and leaves the others working.
 */
export function loadBraintreeComponents(options: {
  clientToken: string;
  card: boolean;
  googlePay: { merchantId?: string | null } | null;
  /** `preload`: every card payment verifies; `on_demand`: only when an issuer asks; `never`: 3-D Secure is off. */
  threeDSecure: 'preload' | 'on_demand' | 'never';
  /** Client and Hosted Fields the page's first script started (main.tsx): adopted, not made again. */
  early?: EarlyHostedFields | null;
}): BraintreeComponents {
  const early = options.early ?? null;
  const client = early?.client ?? import('braintree-web/client').then((m) => cjs(m).create({ authorization: options.clientToken }));
  const hostedFieldsModule = options.card && !early ? import('braintree-web/hosted-fields') : null;
  const googlePaymentModule = options.googlePay ? import('braintree-web/google-payment') : null;
  const loadThreeDSecureModule = once(() => import('braintree-web/three-d-secure'));

  const watched = <T>(kind: Parameters<typeof reportCheckoutFailure>[0], promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      reportCheckoutFailure(kind, error);
      throw error;
    });
  const clientReady = watched('braintree_client', client);
  const deviceData = once(() =>
    Promise.all([clientReady, import('braintree-web/data-collector')])
      .then(([c, m]) => cjs(m).create({ client: c }) as Promise<{ deviceData: string }>)
      .then((collector) => collector.deviceData)
      .catch((error: unknown) => {
        reportCheckoutFailure('data_collector', error);
        return null;
      }),
  );
  // Mark as handled: each dependent promise reports its own failure.
  clientReady.catch(() => undefined);

  return {
    hostedFields: !options.card
      ? null
      : early
        ? // Already in the page's slots: the engine's options are the same ones (hosted-fields-setup.ts).
          clientReady.then(() => () => early.hostedFields)
        : Promise.all([clientReady, hostedFieldsModule!]).then(
            ([c, m]) =>
              (fields: Record<string, unknown>) =>
                cjs(m).create({ ...fields, client: c }) as Promise<HostedFieldsInstance>,
          ),
    client: clientReady,
    googlePayment:
      googlePaymentModule &&
      watched(
        'google_pay',
        Promise.all([clientReady, googlePaymentModule]).then(
          ([c, m]) =>
            cjs(m).create({
              client: c,
              googlePayVersion: 2,
              ...(options.googlePay?.merchantId ? { googleMerchantId: options.googlePay.merchantId } : {}),
            }) as Promise<GooglePaymentInstance>,
        ),
      ),
    threeDSecure:
      options.card && options.threeDSecure !== 'never'
        ? once(() =>
            watched(
              'three_d_secure',
              Promise.all([clientReady, loadThreeDSecureModule()]).then(([c, m]) => cjs(m).create({ client: c, version: 2 }) as Promise<ThreeDSecureInstance>),
            ),
          )
        : null,
    deviceData,
    warm() {
      void deviceData();
      if (options.card && options.threeDSecure === 'preload') void loadThreeDSecureModule().catch(() => undefined);
    },
  };
}

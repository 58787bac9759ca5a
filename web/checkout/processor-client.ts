import { toDecimalString } from '../../src/domain/shared/money';
import { checkoutApi, type PublicSession } from './api';
import type { BraintreeComponents } from './braintree/braintree-components';
import type { CardFormEngine } from './card-form/engine';
import type { GooglePayProvider } from './google-pay/google-pay';
import type { MessageKey } from './i18n';
import type { PaymentMethodSwitches } from '../../src/domain/payments/offered-payment-methods';
import type { GooglePaySetup } from './payment-methods';
import { processorPlan, type BraintreeClientConfig } from './processor-plan';
import { reportCheckoutFailure } from './report';
import { threeDSecurePolicy } from '../../src/domain/processors/three-d-secure-policy';

/** The processor's side of the page: the card engine, Google Pay, device data, 3-D Secure. */
export interface ProcessorClient {
  /** null when cards are not offered. */
  engine: CardFormEngine | null;
  /** The processor cannot take payments right now (no client token): say so, keep the page calm. */
  unavailable: boolean;
  googlePaySetup: GooglePaySetup | null;
  googlePay: Promise<GooglePayProvider> | null;
  /** braintree-web's client (Braintree only): the Apple Pay, PayPal and Venmo buttons create their components on it. */
  braintreeClient?: Promise<unknown>;
  deviceData(): Promise<string | null>;
  /** Starts loading what paying (not typing) needs; called once the card form is ready. */
  warm(): void;
  /**
   * 3-D Secure before a card payment when `threeDSecurePolicy` says so, or when `issuerAsked` (the
   * first attempt was declined for authentication); returns the nonce to charge.
   */
  authenticate(
    card: { nonce: string; bin?: string; email: string },
    options?: { issuerAsked?: boolean },
  ): Promise<{ ok: true; nonce: string } | { ok: false; key: MessageKey }>;
  /** A card declined because the issuer asks for authentication is verified and retried once. */
  verifiesWhenIssuerAsks: boolean;
}

const started = new Map<string, Promise<ProcessorClient>>();

/**
 * The processor client of a session, started once per page: `hydrate.tsx` starts it beside hydration,
 * so Braintree's client and Hosted Fields load while React hydrates; the form picks up the same one.
 */
export function processorClientFor(session: PublicSession, switches: PaymentMethodSwitches & { threeDSecure?: string }): Promise<ProcessorClient> {
  let client = started.get(session.id);
  if (!client) {
    client = createProcessorClient(session, switches);
    started.set(session.id, client);
  }
  return client;
}

/**
 * Builds the processor client for a session, in the browser only: the built-in test processor or
 * Braintree. Each engine's code is its own chunk, which the server already asked the browser to
 * preload (modulepreload) for this session's processor, so the import here costs no round trip.
 */
async function createProcessorClient(session: PublicSession, switches: PaymentMethodSwitches & { threeDSecure?: string }): Promise<ProcessorClient> {
  const plan = processorPlan(session, switches);
  if (session.processor.name !== 'braintree') {
    // Test mode's side is its own chunk: a Braintree page does not carry it.
    const [engine, { testProcessorClient }] = await Promise.all([
      plan.card ? import('./card-form/builtin-engine').then((m) => new m.BuiltinCardEngine((details) => checkoutApi.tokenizeCard(session.id, details))) : null,
      import('./test-processor-client'),
    ]);
    const testPolicy = threeDSecurePolicy({ mode: switches.threeDSecure ?? 'when_required', accountRequires: false, paymentMethodType: 'card' });
    return testProcessorClient(session, engine, plan.googlePay, testPolicy.verifyBeforePaying);
  }
  const config = session.processor as unknown as BraintreeClientConfig;
  if (plan.unavailable || !config.clientToken) {
    return {
      engine: null,
      unavailable: true,
      googlePaySetup: null,
      googlePay: null,
      deviceData: async () => null,
      warm: () => undefined,
      authenticate: async () => ({ ok: false, key: 'error.processor_unavailable' }),
      verifiesWhenIssuerAsks: false,
    };
  }
  const policy = threeDSecurePolicy({
    mode: switches.threeDSecure ?? 'when_required',
    accountRequires: config.threeDSecure?.required ?? false,
    paymentMethodType: 'card',
  });
  const [{ loadBraintreeComponents }, hostedFieldsEngine, early] = await Promise.all([
    import('./braintree/braintree-components'),
    plan.card ? import('./card-form/hosted-fields-engine') : null,
    // Started by main.tsx before React, into the slots this form hydrated around (card pages only).
    plan.card ? import('./braintree/early-hosted-fields').then((m) => m.earlyHostedFields(config.clientToken!)) : null,
  ]);
  const components = loadBraintreeComponents({
    clientToken: config.clientToken,
    early,
    card: plan.card !== null,
    googlePay: plan.googlePay,
    threeDSecure: policy.verifyBeforePaying ? 'preload' : policy.verifyWhenIssuerAsks ? 'on_demand' : 'never',
  });
  return {
    engine: components.hostedFields && hostedFieldsEngine ? new hostedFieldsEngine.HostedFieldsEngine(components.hostedFields) : null,
    unavailable: false,
    googlePaySetup: plan.googlePay,
    googlePay: plan.googlePay && components.googlePayment ? braintreeGooglePay(components) : null,
    braintreeClient: components.client,
    deviceData: () => components.deviceData(),
    warm: () => components.warm(),
    authenticate: (card, options) =>
      policy.verifyBeforePaying || (options?.issuerAsked && policy.verifyWhenIssuerAsks)
        ? authenticateWithThreeDSecure(components, session, card)
        : Promise.resolve({ ok: true, nonce: card.nonce }),
    verifiesWhenIssuerAsks: policy.verifyWhenIssuerAsks,
  };
}

/** Google Pay through braintree-web's google-payment (API version 2). */
async function braintreeGooglePay(components: BraintreeComponents): Promise<GooglePayProvider> {
  const googlePayment = await components.googlePayment!;
  return {
    async paymentDataRequest(transaction) {
      return googlePayment.createPaymentDataRequest({
        emailRequired: true,
        merchantInfo: { merchantName: transaction.merchantName },
        transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: transaction.totalPrice, currencyCode: transaction.currencyCode },
      });
    },
    async toNonce(data) {
      return (await googlePayment.parseResponse(data)).nonce;
    },
  };
}

async function authenticateWithThreeDSecure(
  components: BraintreeComponents,
  session: PublicSession,
  card: { nonce: string; bin?: string; email: string },
): Promise<{ ok: true; nonce: string } | { ok: false; key: MessageKey }> {
  if (!components.threeDSecure) return { ok: true, nonce: card.nonce };
  try {
    const threeDSecure = await components.threeDSecure();
    const result = await threeDSecure.verifyCard({
      amount: toDecimalString(session.amount_total, session.currency),
      nonce: card.nonce,
      bin: card.bin,
      email: card.email,
      // Cardinal shows the issuer's challenge in its own modal over the page.
      onLookupComplete: (_data: unknown, next: () => void) => next(),
    });
    if (result.liabilityShiftPossible && !result.liabilityShifted) return { ok: false, key: 'threeDSecure.failed' };
    return { ok: true, nonce: result.nonce };
  } catch (error) {
    const code = String((error as { code?: string }).code ?? '');
    if (/CANCEL/.test(code)) return { ok: false, key: 'threeDSecure.canceled' };
    reportCheckoutFailure('three_d_secure', error);
    return { ok: false, key: 'threeDSecure.failed' };
  }
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, type Route } from '@playwright/test';

/**
 * Browser-side doubles of third parties, for tests only: Braintree's client API (the configuration
 * braintree-web fetches from the client token's configUrl, analytics), PayPal's device-data script,
 * and Google's pay.js. Hosted Fields' frames are not doubled: `assets` decides whether they load.
 */
const payJsDouble = readFileSync(path.join(import.meta.dirname, 'pay-js-double.js'), 'utf8');
const paypalSdkDouble = readFileSync(path.join(import.meta.dirname, 'paypal-sdk-double.js'), 'utf8');

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

function gatewayConfiguration(merchantId: string, paypal: boolean, venmo: boolean, applePay: boolean) {
  return {
    environment: 'sandbox',
    merchantId,
    clientApiUrl: `https://api.sandbox.braintreegateway.com:443/merchants/${merchantId}/client_api`,
    assetsUrl: 'https://assets.braintreegateway.com',
    analytics: { url: `https://client-analytics.sandbox.braintreegateway.com/${merchantId}` },
    challenges: ['cvv', 'postal_code'],
    creditCards: { supportedCardTypes: ['Visa', 'MasterCard', 'American Express', 'Discover'] },
    threeDSecureEnabled: true,
    paypalEnabled: paypal,
    ...(paypal
      ? {
          paypal: {
            clientId: 'e2e-paypal-client-id',
            displayName: 'E2E Roasters',
            environment: 'offline',
            environmentNoNetwork: false,
            unvettedMerchant: false,
            currencyIsoCode: 'USD',
          },
        }
      : {}),
    ...(applePay
      ? {
          applePayWeb: {
            countryCode: 'US',
            currencyCode: 'USD',
            merchantIdentifier: 'merchant.com.tillpoint.e2e',
            supportedNetworks: ['visa', 'mastercard', 'amex', 'discover'],
          },
        }
      : {}),
    ...(venmo ? { payWithVenmo: { merchantId: 'e2e-venmo-profile', accessToken: 'access_token$sandbox$e2e', environment: 'sandbox' } } : {}),
    androidPay: {
      enabled: true,
      displayName: 'E2E Roasters',
      environment: 'sandbox',
      googleAuthorizationFingerprint: 'google-auth-fingerprint-e2e',
      supportedNetworks: ['visa', 'mastercard', 'amex', 'discover'],
    },
  };
}

export interface ThirdPartyOptions {
  /** pay.js: the double (default), or blocked. */
  payJs?: 'double' | 'blocked';
  /** What the double's isReadyToPay answers. */
  googlePayReady?: boolean;
  /** Hosted Fields frames (assets.braintreegateway.com): blocked unless a test serves them. */
  assets?: 'blocked';
  /** PayPal linked to the Braintree account: its client API calls and PayPal's JS SDK are doubled. */
  paypal?: boolean;
  /** Apple Pay on for the Braintree account: merchant validation and tokenizing are doubled (Apple's side is the ApplePaySession double). */
  applePay?: boolean;
  /** Venmo on for the Braintree account: its payment contexts (Braintree's GraphQL API) and the Venmo app are doubled. */
  venmo?: boolean;
}

/**
 * The Venmo app as a phone browser reaches it (braintree-web opens https://venmo.com/braintree/checkout):
 * a page that approves or cancels the payment context and sends the shopper back to the x-success or
 * x-cancel URL, as the app switches back to the browser tab.
 */
function venmoApp(url: URL) {
  const decide = (decision: string, label: string) =>
    `<a href="https://venmo.com/braintree/e2e-decision?decision=${decision}&resource_id=${encodeURIComponent(url.searchParams.get('resource_id') ?? '')}&to=${encodeURIComponent(url.searchParams.get(decision === 'approve' ? 'x-success' : 'x-cancel') ?? '')}">${label}</a>`;
  return `<!doctype html><html lang="en"><title>Venmo</title><h1>Venmo (sandbox)</h1><p>Pay ${url.searchParams.get('braintree_merchant_id')}</p>${decide('approve', 'Approve payment')} ${decide('cancel', 'Cancel')}</html>`;
}

/** What a wallet's braintree-web component sent to Braintree's client API (its endpoint under client_api/v1, its body). */
export type WalletClientApiRequest = { endpoint: string; body: Record<string, any> };

/** A Venmo payment context, as the GraphQL double keeps it. */
export type VenmoContext = { status: 'CREATED' | 'APPROVED' | 'CANCELED'; input: Record<string, unknown> };

export async function routeThirdParties(
  page: Page,
  options: ThirdPartyOptions = {},
): Promise<{ walletRequests: WalletClientApiRequest[]; venmoContexts: Map<string, VenmoContext> }> {
  const walletRequests: WalletClientApiRequest[] = [];
  // What Braintree's client API answers each wallet component, when the account has that wallet.
  const walletEndpoints = [
    {
      on: options.applePay,
      endpoint: 'apple_pay_web/sessions',
      status: 200,
      answer: () => ({
        merchantSessionIdentifier: 'e2e-apple-pay-session',
        displayName: 'E2E Roasters',
        epochTimestamp: Date.now(),
        expiresAt: Date.now() + 300_000,
      }),
    },
    {
      on: options.applePay,
      endpoint: 'payment_methods/apple_payment_tokens',
      status: 201,
      answer: () => ({
        applePayCards: [
          {
            type: 'ApplePayCard',
            nonce: 'fake-apple-pay-visa-nonce',
            description: 'Apple Pay - Visa 1881',
            consumed: false,
            details: { cardType: 'Apple Pay - Visa', lastTwo: '81', dpanLastTwo: '81' },
          },
        ],
      }),
    },
    {
      on: options.paypal,
      endpoint: 'paypal_hermes/create_payment_resource',
      status: 200,
      answer: () => ({ paymentResource: { redirectUrl: `https://www.sandbox.paypal.com/checkoutnow?token=EC-E2E${walletRequests.length}` } }),
    },
    {
      on: options.paypal,
      endpoint: 'payment_methods/paypal_accounts',
      status: 201,
      answer: () => ({
        paypalAccounts: [
          {
            type: 'PayPalAccount',
            nonce: 'fake-paypal-one-time-nonce',
            description: 'PayPal',
            consumed: false,
            details: { payerInfo: { email: 'payer@example.com', payerId: 'E2EPAYER', firstName: 'Pat', lastName: 'Payer' } },
          },
        ],
      }),
    },
  ];
  const venmoContexts = new Map<string, VenmoContext>();
  await page.addInitScript(
    (config) => {
      (window as unknown as { __payJsDoubleConfig: unknown }).__payJsDoubleConfig = config;
    },
    { ready: options.googlePayReady ?? true },
  );

  await page.route('https://api.sandbox.braintreegateway.com/**', async (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const url = new URL(request.url());
    const configuration = /^\/merchants\/([^/]+)\/client_api\/v1\/configuration$/.exec(url.pathname);
    if (configuration && url.searchParams.get('authorizationFingerprint')) {
      return route.fulfill({
        status: 200,
        headers: cors,
        contentType: 'application/json',
        json: gatewayConfiguration(configuration[1]!, options.paypal ?? false, options.venmo ?? false, options.applePay ?? false),
      });
    }
    const wallet = request.method() === 'POST' ? walletEndpoints.find((e) => e.on && url.pathname.endsWith(`/client_api/v1/${e.endpoint}`)) : undefined;
    if (wallet) {
      walletRequests.push({ endpoint: wallet.endpoint, body: request.postDataJSON() });
      return route.fulfill({ status: wallet.status, headers: cors, contentType: 'application/json', json: wallet.answer() });
    }
    return route.fulfill({ status: 404, headers: cors, contentType: 'application/json', json: { error: { message: 'not doubled' } } });
  });
  await page.route('https://client-analytics.sandbox.braintreegateway.com/**', (route) =>
    route.fulfill({ status: 200, headers: cors, contentType: 'application/json', body: '{}' }),
  );
  await page.route('https://c.paypal.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: '' }));
  await page.route('https://payments.sandbox.braintree-api.com/graphql', async (route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const { query, variables } = request.postDataJSON() as { query: string; variables: Record<string, any> };
    const reply = (data: unknown) => route.fulfill({ status: 200, headers: cors, contentType: 'application/json', json: { data } });
    if (!options.venmo) return route.fulfill({ status: 200, headers: cors, contentType: 'application/json', json: { errors: [{ message: 'not doubled' }] } });
    if (query.includes('createVenmoPaymentContext(')) {
      const id = `venmo_ctx_${venmoContexts.size + 1}`;
      venmoContexts.set(id, { status: 'CREATED', input: variables.input });
      const now = Date.now();
      return reply({
        createVenmoPaymentContext: {
          venmoPaymentContext: {
            id,
            merchantId: 'e2e-venmo-profile',
            createdAt: new Date(now).toISOString(),
            expiresAt: new Date(now + 300_000).toISOString(),
          },
        },
      });
    }
    if (query.includes('node(id:')) {
      const context = venmoContexts.get(variables.id);
      return reply({
        node: context
          ? {
              status: context.status,
              paymentMethodId: context.status === 'APPROVED' ? 'fake-venmo-account-nonce' : null,
              userName: context.status === 'APPROVED' ? '@venmojoe' : null,
            }
          : null,
      });
    }
    if (query.includes('updateVenmoPaymentContextStatus(')) {
      const context = venmoContexts.get(variables.input.id);
      if (context) context.status = variables.input.status;
      return reply({ updateVenmoPaymentContextStatus: { clientMutationId: null } });
    }
    return route.fulfill({ status: 200, headers: cors, contentType: 'application/json', json: { errors: [{ message: 'not doubled' }] } });
  });
  await page.context().route('https://venmo.com/braintree/**', (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/braintree/checkout') return route.fulfill({ status: 200, contentType: 'text/html', body: venmoApp(url) });
    // The shopper's decision: the payment context changes, and the app switches back to the page.
    const context = venmoContexts.get(url.searchParams.get('resource_id') ?? '');
    const approved = url.searchParams.get('decision') === 'approve';
    if (context) context.status = approved ? 'APPROVED' : 'CANCELED';
    const back = `${url.searchParams.get('to')}${approved ? `&resource_id=${url.searchParams.get('resource_id')}` : ''}`;
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><script>window.opener.location.href = ${JSON.stringify(back)}; window.close();</script>`,
    });
  });
  await page.route('https://www.paypal.com/sdk/js**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: paypalSdkDouble }));
  await page.route('https://assets.braintreegateway.com/**', (route) => route.abort('blockedbyclient'));
  await page.route('https://pay.google.com/**', (route) =>
    options.payJs === 'blocked' ? route.abort('blockedbyclient') : route.fulfill({ status: 200, contentType: 'application/javascript', body: payJsDouble }),
  );
  return { walletRequests, venmoContexts };
}

/**
 * The page waits 12 s for Hosted Fields' frames (HOSTED_FIELDS_TIMEOUT_MS) before it says they did
 * not load. With the page's clock installed (page.clock), the test moves it past that instead of
 * waiting: 12 s on, again until the page has given up (its wait starts once the frames are asked for).
 */
export async function giveUpOnCardFrames(page: Page) {
  await expect(async () => {
    await page.clock.fastForward(12_000);
    await expect(page.getByText('Loading the secure card form…')).toHaveCount(0, { timeout: 1000 });
  }).toPass();
}

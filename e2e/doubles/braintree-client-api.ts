import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Route } from '@playwright/test';

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

function gatewayConfiguration(merchantId: string, paypal: boolean) {
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
      ? { paypal: { clientId: 'e2e-paypal-client-id', displayName: 'E2E Roasters', environment: 'offline', environmentNoNetwork: false, unvettedMerchant: false, currencyIsoCode: 'USD' } }
      : {}),
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
}

/** What braintree-web paypal-checkout sent to Braintree's client API (create_payment_resource, paypal_accounts). */
export type PayPalClientApiRequest = { endpoint: 'create_payment_resource' | 'paypal_accounts'; body: Record<string, any> };

export async function routeThirdParties(page: Page, options: ThirdPartyOptions = {}): Promise<{ paypalRequests: PayPalClientApiRequest[] }> {
  const paypalRequests: PayPalClientApiRequest[] = [];
  await page.addInitScript((config) => {
    (window as unknown as { __payJsDoubleConfig: unknown }).__payJsDoubleConfig = config;
  }, { ready: options.googlePayReady ?? true });

  await page.route('https://api.sandbox.braintreegateway.com/**', async (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    const url = new URL(request.url());
    const configuration = /^\/merchants\/([^/]+)\/client_api\/v1\/configuration$/.exec(url.pathname);
    if (configuration && url.searchParams.get('authorizationFingerprint')) {
      return route.fulfill({ status: 200, headers: cors, contentType: 'application/json', json: gatewayConfiguration(configuration[1]!, options.paypal ?? false) });
    }
    if (options.paypal && request.method() === 'POST' && url.pathname.endsWith('/client_api/v1/paypal_hermes/create_payment_resource')) {
      const body = request.postDataJSON();
      paypalRequests.push({ endpoint: 'create_payment_resource', body });
      return route.fulfill({ status: 200, headers: cors, contentType: 'application/json', json: { paymentResource: { redirectUrl: `https://www.sandbox.paypal.com/checkoutnow?token=EC-E2E${paypalRequests.length}` } } });
    }
    if (options.paypal && request.method() === 'POST' && url.pathname.endsWith('/client_api/v1/payment_methods/paypal_accounts')) {
      const body = request.postDataJSON();
      paypalRequests.push({ endpoint: 'paypal_accounts', body });
      return route.fulfill({
        status: 201,
        headers: cors,
        contentType: 'application/json',
        json: { paypalAccounts: [{ type: 'PayPalAccount', nonce: 'fake-paypal-one-time-nonce', description: 'PayPal', consumed: false, details: { payerInfo: { email: 'payer@example.com', payerId: 'E2EPAYER', firstName: 'Pat', lastName: 'Payer' } } }] },
      });
    }
    return route.fulfill({ status: 404, headers: cors, contentType: 'application/json', json: { error: { message: 'not doubled' } } });
  });
  await page.route('https://client-analytics.sandbox.braintreegateway.com/**', (route) =>
    route.fulfill({ status: 200, headers: cors, contentType: 'application/json', body: '{}' }),
  );
  await page.route('https://c.paypal.com/**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: '' }));
  await page.route('https://www.paypal.com/sdk/js**', (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: paypalSdkDouble }));
  await page.route('https://assets.braintreegateway.com/**', (route) => route.abort('blockedbyclient'));
  await page.route('https://pay.google.com/**', (route) =>
    options.payJs === 'blocked'
      ? route.abort('blockedbyclient')
      : route.fulfill({ status: 200, contentType: 'application/javascript', body: payJsDouble }),
  );
  return { paypalRequests };
}

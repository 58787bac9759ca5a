import type { Config } from '../runtime/config';
import type { BrowserReportingConfig } from '../../web/telemetry/browser-reporting';

/**
 * What the checkout page learns at run time rather than at build time, so one build serves every
 * install: where to report errors (a public DSN). Its flags are evaluated by the server for the
 * first paint (page-flags.ts), so the page never reaches a flag service.
 */
export interface CheckoutClientConfig {
  sentry: BrowserReportingConfig;
}

export function checkoutClientConfig(config: Pick<Config, 'sentry'>): CheckoutClientConfig {
  const { sentry } = config;
  return {
    sentry: sentry.browserDsn ? { dsn: sentry.browserDsn, environment: sentry.environment, release: sentry.release, sampleRate: sentry.sampleRate } : null,
  };
}

const originOf = (url: string) => new URL(url).origin;

/** Where the checkout page's browsers send CSP violation reports (src/http/routes/csp-reports.ts). */
export const CSP_REPORT_PATH = '/csp-reports';
export const CSP_REPORT_GROUP = 'csp';
/** The `Reporting-Endpoints` header that names the report-to group. */
export const reportingEndpoints = `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`;

/**
 * The checkout page may reach only us and the third parties its payment methods need: Braintree's
 * client API, Hosted Fields frames and device data (braintree-web), Google Pay's pay.js, PayPal's JS
 * SDK (its button and window, through braintree-web paypal-checkout), the 3-D
 * Secure issuer challenge (Cardinal Commerce) — plus the error-reporting service it was told about.
 * Scripts run from our origin only (and those third parties); the page's inlined data carries the
 * response's `nonce`, and nothing inline runs without it (no 'unsafe-inline').
 */
export function checkoutPagePolicy(
  config: CheckoutClientConfig = { sentry: null },
  page: { nonce?: string; scriptHashes?: readonly string[]; frameAncestors?: readonly string[] } = {},
): string {
  const connect = [
    "'self'",
    'https://api.braintreegateway.com',
    'https://api.sandbox.braintreegateway.com',
    'https://client-analytics.braintreegateway.com',
    'https://client-analytics.sandbox.braintreegateway.com',
    'https://payments.braintree-api.com',
    'https://payments.sandbox.braintree-api.com',
    'https://pay.google.com',
    'https://google.com/pay',
    'https://*.cardinalcommerce.com',
    'https://c.paypal.com',
    'https://www.paypal.com',
  ];
  if (config.sentry) connect.push(originOf(config.sentry.dsn));
  return [
    "default-src 'self'",
    "img-src 'self' data: https:",
    "style-src 'self' 'unsafe-inline'",
    // The nonce is this response's (the page's inlined data); the hashes are the integrity import
    // map's (src/http/checkout-page/subresource-integrity.ts), the same for every response.
    `script-src 'self'${page.nonce ? ` 'nonce-${page.nonce}'` : ''}${(page.scriptHashes ?? []).map((hash) => ` ${hash}`).join('')} https://pay.google.com https://c.paypal.com https://www.paypal.com https://songbird.cardinalcommerce.com https://songbirdstag.cardinalcommerce.com`,
    `connect-src ${[...new Set(connect)].join(' ')}`,
    'frame-src https://assets.braintreegateway.com https://pay.google.com https://*.cardinalcommerce.com https://c.paypal.com https://www.paypal.com',
    // An embedded session's page may be framed by its account's allowed origins; every other page by none.
    page.frameAncestors?.length ? `frame-ancestors ${page.frameAncestors.join(' ')}` : "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self' https://*.cardinalcommerce.com",
    // DOM XSS sinks take only values from the page's named policies (web/checkout/trusted-types.ts).
    "require-trusted-types-for 'script'",
    'trusted-types tillpoint default',
    // Violations reach POST /csp-reports: Reporting API first, report-uri for browsers without it.
    `report-to ${CSP_REPORT_GROUP}`,
    `report-uri ${CSP_REPORT_PATH}`,
  ].join('; ');
}

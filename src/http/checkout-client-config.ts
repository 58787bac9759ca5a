import type { Config } from '../runtime/config';

/**
 * What the checkout page learns at run time rather than at build time, so one build serves every
 * install: where to report errors (a public DSN) and where to read flags.
 */
export interface CheckoutClientConfig {
  sentry: { dsn: string; environment: string; release: string; sampleRate: number } | null;
  /** Base URL of the OFREP service; '' is this server. */
  ofrepUrl: string;
}

export function checkoutClientConfig(config: Pick<Config, 'sentry' | 'flagsOfrepUrl'>): CheckoutClientConfig {
  const { sentry } = config;
  return {
    sentry: sentry.browserDsn
      ? { dsn: sentry.browserDsn, environment: sentry.environment, release: sentry.release, sampleRate: sentry.sampleRate }
      : null,
    ofrepUrl: config.flagsOfrepUrl ?? '',
  };
}

/** The page with its configuration in an inert JSON script element (CSP does not run it). */
export function checkoutPageHtml(html: string, config: CheckoutClientConfig = { sentry: null, ofrepUrl: '' }): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html.replace('</head>', `<script type="application/json" id="tillpoint-config">${json}</script></head>`);
}

const originOf = (url: string) => new URL(url).origin;

/**
 * The checkout page may reach only us and the third parties its payment methods need: Braintree's
 * client API, Hosted Fields frames and device data (braintree-web), Google Pay's pay.js, the 3-D
 * Secure issuer challenge (Cardinal Commerce) — plus the error-reporting and flag services it was
 * told about.
 */
export function checkoutPagePolicy(config: CheckoutClientConfig = { sentry: null, ofrepUrl: '' }): string {
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
  ];
  if (config.sentry) connect.push(originOf(config.sentry.dsn));
  if (config.ofrepUrl) connect.push(originOf(config.ofrepUrl));
  return [
    "default-src 'self'",
    "img-src 'self' data: https:",
    "style-src 'self' 'unsafe-inline'",
    "script-src 'self' https://pay.google.com https://c.paypal.com https://songbird.cardinalcommerce.com https://songbirdstag.cardinalcommerce.com",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    'frame-src https://assets.braintreegateway.com https://pay.google.com https://*.cardinalcommerce.com https://c.paypal.com',
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self' https://*.cardinalcommerce.com",
  ].join('; ');
}

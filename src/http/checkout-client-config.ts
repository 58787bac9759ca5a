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

/** The page's Content-Security-Policy: its own origin, plus the error-reporting and flag services it was told about. */
export function checkoutPagePolicy(config: CheckoutClientConfig = { sentry: null, ofrepUrl: '' }): string {
  const connect = ["'self'"];
  if (config.sentry) connect.push(originOf(config.sentry.dsn));
  if (config.ofrepUrl) connect.push(originOf(config.ofrepUrl));
  return [
    "default-src 'self'",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "img-src 'self' data: https:",
    "style-src 'self' 'unsafe-inline'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

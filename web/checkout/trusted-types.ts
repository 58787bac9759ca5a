/**
 * Trusted Types for the checkout page (its CSP says `require-trusted-types-for 'script'` and
 * `trusted-types tillpoint default`): no string reaches a DOM XSS sink unless one of these policies
 * let it through.
 *
 * - `tillpoint`: our own code; the only script it ever adds is Google's pay.js.
 * - `default`: what third-party libraries do without knowing of Trusted Types. braintree-web loads
 *   PayPal FraudNet, PayPal's JS SDK (paypal-checkout) and Cardinal's 3-D Secure script by URL, and writes FraudNet's JSON settings into
 *   a script element: script URLs are allowed only on the exact third-party origins the CSP allows,
 *   script text only when it is JSON data, and HTML never.
 *
 * Browsers without Trusted Types get nothing from this file, and lose nothing: the CSP still binds.
 */
/** Google's pay.js, loaded only on pages that offer Google Pay (google-pay/google-pay.ts). */
export const PAY_JS_URL = 'https://pay.google.com/gp/p/js/pay.js';

interface TrustedTypePolicyOptions {
  createHTML?: (input: string) => string;
  createScript?: (input: string) => string;
  createScriptURL?: (input: string) => string;
}
interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: TrustedTypePolicyOptions): { createScriptURL(input: string): unknown };
}

/** Third-party script origins braintree-web loads from (the same as the CSP's script-src). */
const thirdPartyScriptOrigins = new Set([
  'https://c.paypal.com',
  'https://www.paypal.com',
  'https://songbird.cardinalcommerce.com',
  'https://songbirdstag.cardinalcommerce.com',
]);

function refuse(kind: string): never {
  throw new TypeError(`Trusted Types: this page does not allow ${kind}`);
}

const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;

const ownPolicy = factory?.createPolicy('tillpoint', {
  createScriptURL: (url) => (url === PAY_JS_URL ? url : refuse(`a script from ${url}`)),
});

factory?.createPolicy('default', {
  createHTML: () => refuse('HTML written into the page'),
  createScript: (text) => {
    try {
      JSON.parse(text);
      return text;
    } catch {
      return refuse('script text');
    }
  },
  createScriptURL: (url) => {
    const parsed = new URL(url, window.location.href);
    return thirdPartyScriptOrigins.has(parsed.origin) ? url : refuse(`a script from ${parsed.origin}`);
  },
});

/** The value to give `script.src` for pay.js: a TrustedScriptURL where the browser has Trusted Types. */
export function payJsScriptUrl(): string {
  return (ownPolicy?.createScriptURL(PAY_JS_URL) as string | undefined) ?? PAY_JS_URL;
}

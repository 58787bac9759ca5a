import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * design.md §10: braintree-web pinned at exactly 3.79.1, its components imported one by one, and
 * nothing of the components we do not use shipped to shoppers.
 */
const root = path.resolve(import.meta.dirname, '../..');
const assets = path.join(root, 'dist/web/assets');

/** A code each braintree-web component defines and no other shares (from its errors module). */
const unusedComponents: Record<string, string> = {
  'american-express': 'AMEX_NONCE_REQUIRED',
  masterpass: 'MASTERPASS_BROWSER_NOT_SUPPORTED',
  'payment-request': 'PAYMENT_REQUEST_NO_VALID_SUPPORTED_PAYMENT_METHODS',
  // The older paypal component (popup flow); the page uses paypal-checkout.
  paypal: 'PAYPAL_TOKENIZATION_REQUEST_ACTIVE',
  unionpay: 'UNIONPAY_NOT_ENABLED',
  'vault-manager': 'VAULT_MANAGER_DELETE_PAYMENT_METHOD_NONCE_REQUIRES_CLIENT_TOKEN',
  'visa-checkout': 'VISA_CHECKOUT_NOT_ENABLED',
};
const usedComponents: Record<string, string> = {
  client: 'CLIENT_GATEWAY_NETWORK',
  'hosted-fields': 'HOSTED_FIELDS_ATTRIBUTE_NOT_SUPPORTED',
  'google-payment': 'GOOGLE_PAYMENT_NOT_ENABLED',
  'apple-pay': 'APPLE_PAY_NOT_ENABLED',
  'paypal-checkout': 'PAYPAL_START_VAULT_INITIATED_CHECKOUT_SETUP_FAILED',
  venmo: 'VENMO_NOT_ENABLED',
  'local-payment': 'LOCAL_PAYMENT_NOT_ENABLED',
  'us-bank-account': 'US_BANK_ACCOUNT_OPTION_REQUIRED',
  'data-collector': 'DATA_COLLECTOR_KOUNT_ERROR',
  'three-d-secure': 'THREEDS_CARDINAL_SDK_CANCELED',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('braintree-web', () => {
  it('is pinned at exactly 3.79.1, and that is what is installed', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.dependencies['braintree-web']).toBe('3.79.1');
    const installed = JSON.parse(readFileSync(path.join(root, 'node_modules/braintree-web/package.json'), 'utf8'));
    expect(installed.version).toBe('3.79.1');
  });

  it('is imported component by component, never as the whole package', () => {
    const imports = sourceFiles(path.join(root, 'web')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*['"](braintree-web[^'"]*)['"]/g)].map((m) => m[1]!),
    );
    expect(new Set(imports)).toEqual(
      new Set([
        'braintree-web/client',
        'braintree-web/hosted-fields',
        'braintree-web/google-payment',
        'braintree-web/apple-pay',
        'braintree-web/paypal-checkout',
        'braintree-web/venmo',
        'braintree-web/local-payment',
        'braintree-web/us-bank-account',
        'braintree-web/data-collector',
        'braintree-web/three-d-secure',
      ]),
    );
  });

  it('ships each used component in its own chunk and no unused component at all', () => {
    const chunks = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => ({ name, code: readFileSync(path.join(assets, name), 'utf8') }));
    expect(chunks.length).toBeGreaterThan(1);
    for (const [component, marker] of Object.entries(unusedComponents)) {
      expect(
        chunks.filter((c) => c.code.includes(marker)).map((c) => c.name),
        component,
      ).toEqual([]);
    }
    for (const [component, marker] of Object.entries(usedComponents)) {
      const holders = chunks.filter((c) => c.code.includes(marker));
      expect(
        holders.map((c) => c.name),
        component,
      ).toHaveLength(1);
      expect(holders[0]!.name.startsWith('checkout-'), `${component} must not be in the entry chunk`).toBe(false);
    }
  });

  it("ships no promise polyfill: braintree-web's lib/promise.js gets the browser's Promise (vite.config.ts)", () => {
    const chunks = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(assets, name), 'utf8'));
    // promise-polyfill's own error text, in every copy of it.
    expect(chunks.filter((code) => code.includes('Promises must be constructed via new'))).toEqual([]);
    // braintree-web's promise module is still there, handing ExtendedPromise the global Promise.
    expect(chunks.some((code) => /suppressUnhandledPromiseMessage/.test(code))).toBe(true);
  });
});

import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { createLogger, defineConfig, type Logger, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { parserlessRuntime, precompileMessages } from './web/checkout/i18n/precompile-messages.ts';

const web = fileURLToPath(new URL('./web', import.meta.url));
const braintreeWeb = fileURLToPath(new URL('./node_modules/braintree-web', import.meta.url));

/** The braintree-web components the checkout page imports (test/budget/braintree-web.test.ts). */
const braintreeComponents = [
  'client',
  'hosted-fields',
  'google-payment',
  'apple-pay',
  'paypal-checkout',
  'venmo',
  'local-payment',
  'us-bank-account',
  'data-collector',
  'three-d-secure',
];

/**
 * braintree-web's client and the internals every one of its components shares with it (errors,
 * promises, analytics, asset loading, deferred client): one chunk instead of seven small ones, which
 * every Braintree page loads first anyway. Framebus and the frame code stay with hosted-fields and
 * three-d-secure, so a Google Pay page does not carry them. Names from braintree-web 3.79.1, pinned.
 */
const braintreeClientModule =
  /node_modules[\\/](?:braintree-web[\\/](?:client[\\/]|lib[\\/](?:enumerate|braintree-error|promise|constants|methods|errors|convert-methods-to-error|assets|once|is-verified-domain|assign|vendor[\\/]polyfill|create-authorization-data|json-clone|add-metadata|analytics|convert-to-braintree-error|deferred|basic-component-verification|create-deferred-client|create-assets-url|querystring|is-date-string-before-or-on)\.js$)|@braintree[\\/](?:extended-promise|wrap-promise|asset-loader|uuid)[\\/]|@braintree[\\/]browser-detection[\\/](?:dist[\\/])?is-ie(?:9|11)?\.js$)|[\\/]web[\\/]checkout[\\/]braintree[\\/]native-promise\.ts$/;

/**
 * React and what the checkout page shares with the dashboard (formatting, flag surfaces, bundler
 * helpers). The helpers for private class members serve only the dashboard's libraries (TanStack
 * Query): they stay in its chunk, not in this one the checkout page loads.
 */
const sharedWithDashboard =
  /node_modules[\\/](?:react|react-dom|scheduler|@formatjs[\\/]fast-memoize)[\\/]|\0@oxc-project\+runtime@(?!.*(?:[Pp]rivate|ClassBrand))|[\\/]src[\\/]domain[\\/](?:[\w-]+[\\/])?(?:currency|flag-evaluation)\.ts$|[\\/]web[\\/]checkout[\\/]format\.ts$/;

/**
 * What the checkout page's first script (web/checkout/main.tsx) imports, the one-line helper every
 * braintree-web loader shares, and Vite's preload helper: their own chunk, loaded with the first
 * script before anything else (the page's other chunks import them from there).
 */
const checkoutFirstScript =
  /\0vite[\\/]preload-helper|[\\/]web[\\/]checkout[\\/](?:main\.tsx|trusted-types\.ts|page-data\.ts|processor-plan\.ts|payment-methods\.ts|braintree[\\/]module-exports\.ts|styles\.css)$|[\\/]src[\\/]domain[\\/](?:[\w-]+[\\/])?(?:offered-payment-methods|errors)\.ts$/;

/** Parts of the checkout page loaded on demand, each its own chunk. */
const checkoutOnDemand =
  /[\\/]web[\\/]checkout[\\/](?:card-form[\\/](?:builtin|hosted-fields)-engine\.ts|braintree[\\/]braintree-components\.ts|SavedCards\.tsx|Paid\.tsx|saved-card-cvc\.ts|saved-cards\.css|three-d-secure[\\/]test-challenge\.ts|test-processor-client\.ts|test-dialog\.ts|apple-pay[\\/]|wallets[\\/]|local-payment[\\/]|bank-debit[\\/]|shop[\\/](?:PromotionCode|ShippingChoice|AddressForm|QuantityStepper|CustomFields)\.tsx|shop[\\/](?:shop-api\.ts|quantity-stepper\.css|promotion-code\.css|shipping-choice\.css|address-form\.css)|test-dialog\.css|i18n[\\/](?:pseudo-locale\.ts|locale-chunks\.ts|locales[\\/]))/;

/**
 * React's part of the checkout page (web/checkout/hydrate.tsx) with all it imports besides React:
 * one chunk rather than a handful of small ones split off by what else shares them.
 */
const checkoutApp = (id: string) =>
  /[\\/]web[\\/](?:checkout|telemetry)[\\/]|[\\/]src[\\/]domain[\\/](?:[\w-]+[\\/])?(?:money|locale|three-d-secure-policy|customer-email)\.ts$|node_modules[\\/](?:intl-messageformat|@formatjs[\\/]icu-messageformat-parser)[\\/]/.test(
    id,
  ) &&
  // The dashboard's react-intl brings its own copies (nested node_modules): those stay the dashboard's.
  !/node_modules.*node_modules/.test(id) &&
  !checkoutFirstScript.test(id) &&
  !checkoutOnDemand.test(id) &&
  !sharedWithDashboard.test(id);

/**
 * The build's own lines, without one line per file written (about 200, with their .br and .gz
 * copies): `npm start` shows a short summary before the server's key block. `bench:size` measures
 * every file of the checkout page.
 */
const logger = createLogger();
const buildLogger: Logger = {
  ...logger,
  info(message, options) {
    if (/^\s*dist[\\/]web[\\/]/.test(stripVTControlCharacters(message))) return;
    logger.info(message, options);
  },
};

/** One line for the files written: how many, how large, how large as sent (brotli). */
function buildSummary(): Plugin {
  const sizes = { files: 0, bytes: 0, brotli: 0 };
  const kB = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} kB`;
  return {
    name: 'tillpoint:build-summary',
    apply: 'build',
    writeBundle(_options, bundle) {
      for (const [name, output] of Object.entries(bundle)) {
        const size =
          output.type === 'chunk'
            ? Buffer.byteLength(output.code)
            : typeof output.source === 'string'
              ? Buffer.byteLength(output.source)
              : output.source.byteLength;
        if (name.endsWith('.br')) sizes.brotli += size;
        else if (!name.endsWith('.gz')) {
          sizes.files += 1;
          sizes.bytes += size;
        }
      }
    },
    closeBundle() {
      logger.info(`dist/web: ${sizes.files} files, ${kB(sizes.bytes)} (${kB(sizes.brotli)} as brotli; each also .br and .gz)`);
    },
  };
}

/**
 * One build, one entry per app. The checkout page is its own entry (web/checkout/main.tsx, no
 * index.html: the server renders its HTML, src/http/checkout-page) so that it carries no dashboard
 * code; the manifest tells the server which files each page configuration needs. Its budget is
 * checked by test/budget/checkout-size.test.ts.
 */
export default defineConfig({
  root: web,
  base: '/',
  customLogger: buildLogger,
  resolve: {
    // braintree-web's package.json sends bundlers to one self-contained browser bundle per component,
    // each with its own copy of the shared internals (framebus, promise, analytics…). Its CommonJS
    // sources are the same code, so the components share those internals instead (a third smaller).
    alias: [
      ...braintreeComponents.map((component) => ({
        find: new RegExp(`^braintree-web/${component}$`),
        replacement: `${braintreeWeb}/${component}/index.js`,
      })),
      // braintree-web's lib/promise.js falls back to promise-polyfill only where Promise is missing,
      // which no ES2020 browser is: the fallback is the native Promise (test/budget/braintree-web.test.ts).
      { find: /^promise-polyfill$/, replacement: `${web}/checkout/braintree/native-promise.ts` },
      // Every message reaches the page precompiled (precompileMessages): FormatJS without its parser.
      ...parserlessRuntime,
      // braintree-web's data collector (sjcl) tries Node's crypto first, then the browser's
      // crypto.getRandomValues: in the page there is no Node crypto to find.
      { find: /^crypto$/, replacement: `${web}/checkout/braintree/no-node-crypto.ts` },
    ],
  },
  plugins: [
    react(),
    precompileMessages(),
    // Every text file also as .br and .gz, written once here; the server sends the one the browser
    // accepts (@fastify/static `preCompressed`), so no asset is compressed per request.
    compression({
      include: /\.(js|css|html|svg|json|txt|map)$/,
      threshold: 0,
      skipIfLargerOrEqual: false,
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
    }),
    buildSummary(),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The chunk graph the checkout page's script inventory is built from (src/http/checkout-page).
    manifest: true,
    target: 'es2020',
    sourcemap: false,
    // The summary above gives the sizes; bench:size gives them per file, gzip and brotli.
    reportCompressedSize: false,
    rollupOptions: {
      // Timings of plugins are for profiling the build (node --cpu-prof), not for every start.
      checks: { pluginTimings: false },
      input: {
        checkout: `${web}/checkout/main.tsx`,
        dashboard: `${web}/dashboard/index.html`,
      },
      output: {
        codeSplitting: {
          // The checkout page's chunks by what loads together, each with a stable name (the page's
          // script inventory explains chunks by name, src/http/checkout-page/script-justifications.ts):
          // the first script's imports; the early Hosted Fields start; React and what the dashboard
          // shares; braintree-web's client and frame internals; React's part of the page. Fewer,
          // larger files also compress better (test/budget/checkout-size.test.ts).
          groups: [
            { name: 'checkout-first', test: (id: string) => checkoutFirstScript.test(id) && !/main\.tsx$/.test(id), priority: 5 },
            // Hosted Fields started before React (Braintree card pages only; the server preloads it there).
            { name: 'braintree-early', test: /[\\/]web[\\/]checkout[\\/]braintree[\\/](?:early-hosted-fields|hosted-fields-setup)\.ts$/, priority: 5 },
            { name: 'react', test: sharedWithDashboard, priority: 4 },
            { name: 'braintree-client', test: braintreeClientModule, priority: 3 },
            // Framebus and the frame code, with the browser checks Hosted Fields shares with venmo and
            // paypal-checkout: one chunk, not three small ones on the card page's first load.
            {
              name: 'braintree-frames',
              test: /node_modules[\\/](?:framebus|@braintree[\\/](?:iframer|event-emitter)|braintree-web[\\/]lib[\\/]use-min\.js|@braintree[\\/]browser-detection[\\/](?:dist[\\/])?is-(?:android|chrome|edge|samsung|duckduckgo|opera|silk|ios|ios-webview)\.js$)/,
              priority: 2,
            },
            // Two browser checks 3-D Secure shares with paypal-checkout and venmo (HTTPS, Firefox on iOS): one named chunk.
            {
              name: 'braintree-checks',
              test: /node_modules[\\/](?:braintree-web[\\/]lib[\\/]is-https\.js$|@braintree[\\/]browser-detection[\\/](?:dist[\\/])?is-ios-firefox\.js$)/,
              priority: 2,
            },
            // braintree-web's popup window service (frame-service), which paypal-checkout and local-payment share.
            { name: 'braintree-popup', test: /node_modules[\\/]braintree-web[\\/]lib[\\/]frame-service[\\/]/, priority: 2 },
            { name: 'hydrate', test: checkoutApp, priority: 1 },
          ],
        },
      },
    },
  },
});

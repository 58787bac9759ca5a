import { fileURLToPath } from 'node:url';
import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { parserlessRuntime, precompileMessages } from './web/checkout/i18n/precompile-messages';

const web = fileURLToPath(new URL('./web', import.meta.url));
const braintreeWeb = fileURLToPath(new URL('./node_modules/braintree-web', import.meta.url));

/** The braintree-web components the checkout page imports (test/budget/braintree-web.test.ts). */
const braintreeComponents = ['client', 'hosted-fields', 'google-payment', 'data-collector', 'three-d-secure'];

/**
 * One build, one entry per app. The checkout page is its own entry (web/checkout/main.tsx, no
 * index.html: the server renders its HTML, src/http/checkout-page) so that it carries no dashboard
 * code; the manifest tells the server which files each page configuration needs. Its budget is
 * checked by test/budget/checkout-size.test.ts.
 */
export default defineConfig({
  root: web,
  base: '/',
  resolve: {
    // braintree-web's package.json sends bundlers to one self-contained browser bundle per component,
    // each with its own copy of the shared internals (framebus, promise, analytics…). Its CommonJS
    // sources are the same code, so the components share those internals instead (a third smaller).
    alias: [
      ...braintreeComponents.map((component) => ({
        find: new RegExp(`^braintree-web/${component}$`),
        replacement: `${braintreeWeb}/${component}/index.js`,
      })),
      // Every message reaches the page precompiled (precompileMessages): FormatJS without its parser.
      ...parserlessRuntime,
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
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    // The chunk graph the checkout page's script inventory is built from (src/http/checkout-page).
    manifest: true,
    target: 'es2020',
    sourcemap: false,
    rollupOptions: {
      input: {
        checkout: `${web}/checkout/main.tsx`,
        dashboard: `${web}/dashboard/index.html`,
      },
    },
  },
});

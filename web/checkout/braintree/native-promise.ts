/**
 * Stands in for `promise-polyfill` in the build (vite.config.ts): braintree-web's lib/promise.js
 * uses the browser's own Promise whenever there is one, and every browser the page supports
 * (ES2020, the build target) has one, so the polyfill's ~1 KB would never run.
 */
export default Promise;

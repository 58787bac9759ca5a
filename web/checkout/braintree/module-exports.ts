/**
 * A braintree-web component's exports. Its modules are CommonJS, and a dynamic `import()` of one
 * hands them over as `{ default: module.exports }` or as named exports, depending on the bundler.
 * Built into the first script's chunk, which every chunk of the page imports already, so sharing
 * it costs no request (vite.config.ts).
 */
export const cjs = <T>(module: T | { default: T }): T => (module as { default?: T }).default ?? (module as T);

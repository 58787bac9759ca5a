import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const web = fileURLToPath(new URL('./web', import.meta.url));

/**
 * One build, one entry per app. The checkout page is its own entry so that it carries no dashboard
 * code; its budget is checked by test/budget/checkout-size.test.ts.
 */
export default defineConfig({
  root: web,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    rollupOptions: {
      input: {
        checkout: `${web}/checkout/index.html`,
        dashboard: `${web}/dashboard/index.html`,
      },
    },
  },
});

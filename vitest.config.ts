import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx', 'test/**/*.test.ts', 'sdk/node/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist', 'sdk/node/dist', 'e2e'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

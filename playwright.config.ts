import { defineConfig, devices } from '@playwright/test';

/** Browser tests: Debian's Chromium against a real server started by e2e/global-setup.ts. */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // A test's whole flow, on a 2-core machine running two browsers, their servers, Vitest and
  // PostgreSQL at once (up to 40 s on a slow day); the long dashboard flows set as much or more.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${process.env.E2E_PORT ?? 4417}`,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  // Every flow runs on a phone; one tagged @desktop also checks each screen it reaches at 1280×800
  // (checkScreen in e2e/support.ts, ADR 0124).
  projects: [{ name: 'mobile', use: { ...devices['Pixel 5'], viewport: { width: 375, height: 812 }, browserName: 'chromium' } }],
});

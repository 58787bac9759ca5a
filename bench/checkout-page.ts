/**
 * The checkout page as a shopper on a mid phone and a slow 4G line sees it: Debian's Chromium with
 * 4× CPU throttling, 150 ms round trip and 1.6 Mbps down (CDP). For each configuration — the test
 * processor, a Braintree account (the gateway emulator; Hosted Fields frames played by
 * bench/doubles/hosted-fields-frame.html), and error reporting on (a Sentry stand-in) — it opens a
 * fresh session in a fresh browser context three times and prints the medians of LCP and of the
 * moment the card number field takes typing, and the bytes sent (compressed, as on the wire) before
 * that moment and once idle, by file.
 *
 * Run after `npm run build`: `npm run bench:page` (BENCH_RUNS=n to change the count).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { routeThirdParties } from '../e2e/doubles/braintree-client-api';
import { BraintreeGatewayEmulator } from '../test/support/braintree-gateway-emulator';
import { startSentryReceiver } from '../test/support/sentry-receiver';

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin', 'tillpoint.js');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const frameDouble = readFileSync(path.join(import.meta.dirname, 'doubles', 'hosted-fields-frame.html'), 'utf8');
const braintreeCredentials = {
  merchantId: 'bench_merchant',
  publicKey: 'bench_public',
  privateKey: 'bench_private_key',
  merchantAccounts: { bench_usd: 'USD' },
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Served {
  base: string;
  keys: Record<string, string>;
  stop(): Promise<void>;
}

/** `tillpoint serve` on a fresh data folder, with accounts made by the CLI as a self-hoster would. */
async function serve(extraEnv: Record<string, string>, accounts: Array<{ name: string; braintree?: boolean }>): Promise<Served> {
  const port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tillpoint-bench-page-')),
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    LOG_LEVEL: 'warn',
    TILLPOINT_SECRET_KEY: randomBytes(32).toString('hex'),
    ...extraEnv,
  };
  const keys: Record<string, string> = {};
  for (const account of accounts) {
    const created = JSON.parse(execFileSync(process.execPath, [bin, 'account', 'create', '--name', account.name, '--json'], { env, encoding: 'utf8' }));
    keys[account.name] = created.test_secret_key;
    if (account.braintree) {
      execFileSync(
        process.execPath,
        [
          bin,
          'processor',
          'set',
          'braintree',
          '--account',
          created.id,
          '--mode',
          'test',
          '--environment',
          'development',
          '--merchant-id',
          braintreeCredentials.merchantId,
          '--public-key',
          braintreeCredentials.publicKey,
          '--private-key',
          braintreeCredentials.privateKey,
          '--merchant-account',
          'USD=bench_usd',
        ],
        { env, encoding: 'utf8' },
      );
    }
  }
  const server: ChildProcess = spawn(process.execPath, [bin, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`tillpoint serve exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('tillpoint serve did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    keys,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

async function openSession(base: string, key: string): Promise<string> {
  const response = await fetch(`${base}/v1/checkout/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      currency: 'usd',
      line_items: [
        { name: 'Ethiopia Guji, 250 g', unit_amount: 1800, quantity: 2 },
        { name: 'Paper filters', unit_amount: 450, quantity: 1 },
      ],
    }),
  });
  if (!response.ok) throw new Error(`session: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { url: string }).url;
}

/**
 * Watches, in the page's own clock: the last LCP candidate, and the first moment the card number
 * field takes typing — the built-in engine's input present and enabled, or the Hosted Fields frame
 * present once Hosted Fields has set every frame up (the page's first script marks <html
 * data-card-frames="ready">, before React on a Braintree page) or the page is no longer busy
 * loading it. Also when the whole form is ready (React hydrated, the card engine in place, the Pay
 * button live): for Braintree that comes after typing can start.
 */
// A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
const probe = `(() => {
  const bench = (window.__bench = { lcp: 0, usable: null, formReady: null });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    const field = document.getElementById('card-number') || document.querySelector('[data-card-slot="number"]');
    if (!field) return;
    const input = field instanceof HTMLInputElement ? field : null;
    const frame = field.querySelector('iframe');
    const busy = field.closest('[aria-busy="true"]');
    const framesReady = document.documentElement.getAttribute('data-card-frames') === 'ready';
    const now = performance.now();
    if (bench.usable === null && ((input && !input.disabled) || (frame && (framesReady || !busy)))) bench.usable = now;
    if (bench.formReady === null && ((input && !input.disabled) || (frame && !busy))) bench.formReady = now;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();`;

interface Sample {
  lcp: number;
  usable: number | null;
  formReady: number | null;
  html: number;
  before: Map<string, number>;
  idle: Map<string, number>;
}

async function measure(browser: Browser, url: string, braintree: boolean): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page: Page = await context.newPage();
  await routeThirdParties(page);
  // Third parties answer after one round trip of the profile (routed answers skip CDP's throttling).
  const late = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await page.route('https://api.sandbox.braintreegateway.com/**', async (route) => {
    await late(150);
    await route.fallback();
  });
  await page.route('https://assets.braintreegateway.com/**', async (route) => {
    await late(150);
    await route.fulfill({ status: 200, contentType: 'text/html', body: frameDouble });
  });
  await page.addInitScript({ content: probe });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await page.goto(url, { waitUntil: 'load' });
  await page
    .waitForFunction(() => (window as unknown as { __bench: { usable: number | null } }).__bench.usable !== null, undefined, { timeout: 20_000 })
    .catch(() => undefined);
  // Idle: the deferred work (error reporting, device data) has had its turn and the network is quiet.
  await page.waitForTimeout(3500);
  await page.waitForLoadState('networkidle');
  const result = await page.evaluate(() => {
    const bench = (window as unknown as { __bench: { lcp: number; usable: number | null; formReady: number | null } }).__bench;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => new URL(r.name).origin === location.origin && new URL(r.name).pathname.startsWith('/assets/'))
      .map((r) => ({ name: new URL(r.name).pathname, bytes: r.encodedBodySize, end: r.responseEnd }));
    return { ...bench, html: nav.encodedBodySize, resources };
  });
  await context.close();
  const before = new Map<string, number>();
  const idle = new Map<string, number>();
  for (const r of result.resources) {
    const name = r.name.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');
    idle.set(name, (idle.get(name) ?? 0) + r.bytes);
    if (result.usable !== null && r.end <= result.usable) before.set(name, (before.get(name) ?? 0) + r.bytes);
  }
  void braintree;
  return { lcp: result.lcp, usable: result.usable, formReady: result.formReady, html: result.html, before, idle };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

function report(name: string, samples: Sample[]) {
  const usable = samples.map((s) => s.usable).filter((u): u is number => u !== null);
  const mid = samples.find((s) => s.usable === median(usable)) ?? samples[0]!;
  console.log(`\n## ${name}  (median of ${samples.length})`);
  const formReady = samples.map((s) => s.formReady).filter((u): u is number => u !== null);
  console.log(
    `LCP ${(median(samples.map((s) => s.lcp)) / 1000).toFixed(2)} s   card usable ${usable.length ? `${(median(usable) / 1000).toFixed(2)} s` : 'never'}${usable.length < samples.length ? ` (${samples.length - usable.length} runs never usable)` : ''}   form ready (hydrated, Pay live) ${formReady.length ? `${(median(formReady) / 1000).toFixed(2)} s` : 'never'}`,
  );
  console.log(`runs: card usable ${samples.map((s) => (s.usable === null ? '-' : (s.usable / 1000).toFixed(2))).join(' / ')} s`);
  console.log(
    `HTML ${kb(median(samples.map((s) => s.html)))}   JS+CSS before typing ${kb(median(samples.map((s) => sum(s.before))))}   once idle ${kb(median(samples.map((s) => sum(s.idle))))}`,
  );
  console.log('by file (the median-usable run; sizes as sent):');
  const names = [...mid.idle.keys()].sort((a, b) => (mid.idle.get(b) ?? 0) - (mid.idle.get(a) ?? 0));
  for (const file of names) {
    const early = mid.before.get(file);
    console.log(`  ${kb(mid.idle.get(file)!).padStart(9)}  ${early !== undefined ? 'before typing' : 'after       '}  ${file}`);
  }
}

async function main() {
  if (!existsSync(path.join(root, 'dist', 'web', '.vite', 'manifest.json'))) throw new Error('dist/web is missing: run `npm run build` first');
  const emulator = new BraintreeGatewayEmulator(braintreeCredentials);
  const gatewayPort = await emulator.start();
  const sentry = await startSentryReceiver();
  const sentryHost = sentry.url.replace(/^http:\/\//, '');
  const plain = await serve({ GATEWAY_PORT: String(gatewayPort) }, [{ name: 'Bench Coffee' }, { name: 'Bench Roasters', braintree: true }]);
  const withSentry = await serve({ SENTRY_BROWSER_DSN: `http://benchkey@${sentryHost}/2`, SENTRY_ENVIRONMENT: 'bench' }, [{ name: 'Bench Reported' }]);
  const browser = await chromium.launch({
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
  });
  const configurations = [
    { name: 'test processor', base: plain.base, key: plain.keys['Bench Coffee']!, braintree: false },
    { name: 'Braintree', base: plain.base, key: plain.keys['Bench Roasters']!, braintree: true },
    { name: 'Sentry on (test processor)', base: withSentry.base, key: withSentry.keys['Bench Reported']!, braintree: false },
  ];
  console.log(`Checkout page: Chromium ${browser.version()}, CPU 4× slower, 150 ms RTT, 1.6 Mbps down; ${runs} runs each`);
  try {
    for (const configuration of configurations) {
      // One warm-up load per configuration so the server's first-request costs are not measured.
      await measure(browser, await openSession(configuration.base, configuration.key), configuration.braintree);
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await measure(browser, await openSession(configuration.base, configuration.key), configuration.braintree));
      report(configuration.name, samples);
    }
  } finally {
    await browser.close();
    await plain.stop();
    await withSentry.stop();
    await emulator.stop();
    await sentry.close();
  }
}

await main();

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadCheckoutAssets, type PagePreloads } from '../../src/http/checkout-page/assets';

/**
 * The checkout page is what shoppers on phones wait for. Its budget covers every JavaScript and CSS
 * file the page loads before the shopper can type — exactly what the server's head markup names
 * for the page's configuration (entry, stylesheet, modulepreload hints) — measured compressed as
 * built. Error reporting (Sentry) and the flags add nothing here: the SDK loads once the page is
 * idle and the flags come inlined, so "Sentry on" and "every flag on" are the same configurations
 * as far as bytes before typing go; the test covers them through the processor configurations.
 */
const KB = 1024;
const web = path.resolve(import.meta.dirname, '../../dist/web');
const assets = path.join(web, 'assets');

/**
 * Issue 10's goal is 100 KB gzipped before typing in every configuration. The test-processor page
 * meets it; the Braintree pages do not yet (React + react-dom ~67 KB, braintree-web's client and
 * Hosted Fields ~38 KB, the i18n runtime and English catalogue ~4 KB): these limits hold them where
 * they are (docs/performance.md) so they cannot grow while the gap is closed.
 */
const configurations: Record<string, { preloads: PagePreloads; gzipBudget: number; brotliBudget: number }> = {
  'test processor (card and Google Pay)': { preloads: { builtinCard: true, braintree: null }, gzipBudget: 100 * KB, brotliBudget: 100 * KB },
  'Braintree, card only': { preloads: { builtinCard: false, braintree: { card: true, googlePay: false } }, gzipBudget: 118 * KB, brotliBudget: 100 * KB },
  // Google Pay preloaded beside Hosted Fields (every payment method on).
  'Braintree, card and Google Pay': { preloads: { builtinCard: false, braintree: { card: true, googlePay: true } }, gzipBudget: 118 * KB, brotliBudget: 100 * KB },
  'Braintree, Google Pay only': { preloads: { builtinCard: false, braintree: { card: false, googlePay: true } }, gzipBudget: 105 * KB, brotliBudget: 100 * KB },
};

const file = (src: string) => path.join(web, src.replace(/^\//, ''));
const gzipped = (src: string) => gzipSync(readFileSync(file(src)), { level: 9 }).length;
const brotli = (src: string) => readFileSync(`${file(src)}.br`).length;

describe('checkout page size', () => {
  it('has been built (npm run build) before the budget is checked', () => {
    expect(existsSync(path.join(web, '.vite', 'manifest.json')), 'dist/web/.vite/manifest.json is missing: run npm run build').toBe(true);
  });

  for (const [name, { preloads, gzipBudget, brotliBudget }] of Object.entries(configurations)) {
    it(`${name}: at most ${gzipBudget / KB} KB gzipped (${brotliBudget / KB} KB as sent, brotli) before the shopper can type`, () => {
      const files = loadCheckoutAssets(web)!.files(preloads);
      expect(files.some((f) => f.endsWith('.css'))).toBe(true);
      const sizes = files.map((src) => ({ src, gzip: gzipped(src), brotli: brotli(src) }));
      const gzip = sizes.reduce((sum, s) => sum + s.gzip, 0);
      const br = sizes.reduce((sum, s) => sum + s.brotli, 0);
      expect(gzip, `before typing ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(gzipBudget);
      expect(br, `before typing ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(brotliBudget);
      // React and react-dom alone are ~60–70 KB: a total far below that means the check read nothing real.
      expect(gzip).toBeGreaterThan(60 * KB);
    });
  }

  it('Braintree: at most 140 KB gzipped once idle (Hosted Fields, Google Pay, device data; 3-D Secure on demand)', () => {
    const before = loadCheckoutAssets(web)!.files({ builtinCard: false, braintree: { card: true, googlePay: true } });
    const idle = new Set(before);
    // What loads after typing starts: the data-collector component and its own imports.
    const manifest = JSON.parse(readFileSync(path.join(web, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>;
    const visit = (key: string) => {
      if (idle.has(`/${manifest[key]!.file}`) && !/data-collector/.test(key)) return;
      idle.add(`/${manifest[key]!.file}`);
      for (const imported of manifest[key]!.imports ?? []) visit(imported);
    };
    visit(Object.keys(manifest).find((key) => /braintree-web\/(?:dist\/browser\/)?data-collector(?:\/index)?\.js$/.test(key))!);
    const total = [...idle].reduce((sum, src) => sum + gzipped(src), 0);
    expect(total).toBeLessThanOrEqual(140 * KB);
  });

  it("loads no other language's catalogue up front: each is its own chunk, fetched for its shopper", () => {
    const initial = loadCheckoutAssets(web)!
      .files({ builtinCard: true, braintree: null })
      .filter((src) => src.endsWith('.js'))
      .map((src) => readFileSync(file(src), 'utf8'))
      .join('\n');
    const locales = path.resolve(import.meta.dirname, '../../web/checkout/i18n/locales');
    const sample = (locale: string) =>
      (JSON.parse(readFileSync(path.join(locales, `${locale}.json`), 'utf8')) as Record<string, string>)['state.notFound.body']!;
    // English is the fallback every page carries; the check would mean nothing if it were not found.
    expect(initial).toContain(sample('en'));
    const others = readdirSync(locales).filter((f) => f.endsWith('.json') && f !== 'en.json').map((f) => f.slice(0, -5));
    for (const locale of others) expect(initial.includes(sample(locale)), `${locale} is in the initial load`).toBe(false);
    for (const locale of others) {
      expect(readdirSync(assets).some((f) => f.startsWith(`${locale}-`) && f.endsWith('.js')), `${locale} chunk`).toBe(true);
    }
  });

  it('ships neither the Sentry SDK, its scrubber, the OpenFeature SDK nor a braintree-web component to a test-processor page before typing', () => {
    for (const src of loadCheckoutAssets(web)!.files({ builtinCard: true, braintree: null })) {
      const code = readFileSync(file(src), 'utf8');
      // Every braintree-web module carries its version string; our own engine code does not.
      expect(code, src).not.toContain('3.79.1');
      expect(code, src).not.toMatch(/HOSTED_FIELDS_ATTRIBUTE_NOT_SUPPORTED|GOOGLE_PAYMENT_NOT_ENABLED|CLIENT_GATEWAY_NETWORK/);
      expect(code, src).not.toMatch(/sentry\.javascript|__SENTRY__|OpenFeatureEventEmitter|ProviderStatus/);
    }
  });

  it('every text asset is precompressed at build time: a .br and a .gz that decompress to the file', () => {
    const texts = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
    expect(texts.length).toBeGreaterThan(5);
    for (const name of texts) {
      const original = readFileSync(path.join(assets, name));
      expect(brotliDecompressSync(readFileSync(path.join(assets, `${name}.br`))).equals(original), `${name}.br`).toBe(true);
      expect(gunzipSync(readFileSync(path.join(assets, `${name}.gz`))).equals(original), `${name}.gz`).toBe(true);
    }
  });

  it('loads no dashboard code: no chunk the checkout page reaches, statically or on demand, holds it', () => {
    const dashboardEntry = readFileSync(path.join(web, 'dashboard', 'index.html'), 'utf8');
    const dashboardScript = /<script[^>]+src="([^"]+)"/.exec(dashboardEntry)![1]!;
    // Markers only dashboard code carries: its API prefix and the attribute its frame renders.
    const markers = ['/dashboard/api', 'tillpoint-dashboard'];
    expect(readFileSync(file(dashboardScript), 'utf8')).toContain(markers[0]);

    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      const code = readFileSync(path.join(assets, name), 'utf8');
      for (const marker of markers) expect(code, `${name} holds dashboard code`).not.toContain(marker);
      for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]!);
      for (const m of code.matchAll(/["'`](?:\.\/|\/?assets\/)([\w.-]+\.js)["'`]/g)) visit(m[1]!);
    };
    for (const src of loadCheckoutAssets(web)!.files({ builtinCard: true, braintree: { card: true, googlePay: true } })) {
      if (src.endsWith('.js')) visit(path.basename(src));
    }
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].some((f) => f.startsWith('dashboard'))).toBe(false);
  });
});

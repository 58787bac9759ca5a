import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The checkout page is what shoppers on phones wait for. This budget covers the JavaScript it loads
 * before the shopper can type: the entry script and everything it preloads (React included).
 * braintree-web components are loaded on demand and are not counted here.
 */
const BUDGET_BYTES = 100 * 1024;
const web = path.resolve(import.meta.dirname, '../../dist/web');
const html = path.join(web, 'checkout', 'index.html');

function initialScripts(page: string): string[] {
  const sources = [
    ...page.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((m) => m[1]!);
  return [...new Set(sources)].filter((src) => !/braintree/i.test(src));
}

describe('checkout page size', () => {
  it('has been built (npm run build) before the budget is checked', () => {
    expect(existsSync(html), `${html} is missing: run npm run build`).toBe(true);
  });

  it(`loads at most ${BUDGET_BYTES / 1024} KB of gzipped JavaScript before the shopper can type`, () => {
    const page = readFileSync(html, 'utf8');
    const scripts = initialScripts(page);
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = scripts.map((src) => {
      const file = path.join(web, src.replace(/^\//, ''));
      return { src, gzipped: gzipSync(readFileSync(file), { level: 9 }).length };
    });
    const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
    expect(total, `initial JS ${JSON.stringify(sizes)}`).toBeLessThanOrEqual(BUDGET_BYTES);
    // React and react-dom alone are ~60–70 KB: a total far below that means the check read nothing real.
    expect(total).toBeGreaterThan(40 * 1024);
  });

  it('ships no braintree-web component in the initial load', () => {
    const page = readFileSync(html, 'utf8');
    for (const src of initialScripts(page)) {
      const code = readFileSync(path.join(web, src.replace(/^\//, '')), 'utf8');
      // Every braintree-web module carries its version string; our own engine code does not.
      expect(code).not.toContain('3.79.1');
      expect(code).not.toMatch(/HOSTED_FIELDS_ATTRIBUTE_NOT_SUPPORTED|GOOGLE_PAYMENT_NOT_ENABLED|CLIENT_GATEWAY_NETWORK/);
    }
  });

  it('loads no dashboard code: no chunk the checkout page reaches, statically or on demand, holds it', () => {
    const dashboardEntry = readFileSync(path.join(web, 'dashboard', 'index.html'), 'utf8');
    const dashboardScript = /<script[^>]+src="([^"]+)"/.exec(dashboardEntry)![1]!;
    // Markers only dashboard code carries: its API prefix and the attribute its frame renders.
    const markers = ['/dashboard/api', 'tillpoint-dashboard'];
    expect(readFileSync(path.join(web, dashboardScript.replace(/^\//, '')), 'utf8')).toContain(markers[0]);

    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(path.join(web, 'assets', file), 'utf8');
      for (const marker of markers) expect(code, `${file} holds dashboard code`).not.toContain(marker);
      for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([^"']+\.js)["']/g)) visit(m[1]!);
    };
    const page = readFileSync(html, 'utf8');
    for (const src of [...page.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g), ...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)]) {
      visit(path.basename(src[1]!));
    }
    expect(seen.size).toBeGreaterThan(1);
    expect([...seen].some((f) => f.startsWith('dashboard'))).toBe(false);
  });
});

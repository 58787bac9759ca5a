/**
 * The checkout page's JavaScript, chunk by chunk, gzipped: what loads before the shopper can type
 * (the entry script and what index.html preloads) and what loads on demand after it. Run after
 * `npm run build`: `npm run bench:size`. The budget itself is test/budget/checkout-size.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const web = path.resolve(import.meta.dirname, '../dist/web');
const page = readFileSync(path.join(web, 'checkout', 'index.html'), 'utf8');
const read = (src: string) => readFileSync(path.join(web, src.replace(/^\//, '')), 'utf8');
const gzipped = (code: string) => gzipSync(code, { level: 9 }).length;

const initial = [
  ...new Set([
    ...[...page.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)].map((m) => m[1]!),
    ...[...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!),
  ]),
];

// Every chunk reachable from the entry through dynamic import(), for the "on demand" part.
const onDemand = new Set<string>();
const visit = (src: string) => {
  for (const match of read(src).matchAll(/["'`](?:\.\/|\/?assets\/)([\w.-]+\.js)["'`]/g)) {
    const next = `/assets/${match[1]}`;
    if (initial.includes(next) || onDemand.has(next)) continue;
    onDemand.add(next);
    visit(next);
  }
};
initial.forEach(visit);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;
const table = (title: string, sources: Iterable<string>) => {
  const rows = [...sources].map((src) => ({ src, raw: read(src).length, gz: gzipped(read(src)) })).sort((a, b) => b.gz - a.gz);
  console.log(`\n${title}`);
  for (const row of rows) console.log(`${kb(row.gz)} gz ${kb(row.raw)} raw  ${row.src}`);
  const total = rows.reduce((sum, row) => sum + row.gz, 0);
  console.log(`${kb(total)} gz total`);
  return total;
};

const before = table('Before the shopper can type (entry + modulepreload):', initial);
table('On demand (dynamic imports reachable from the entry):', onDemand);
console.log(`\nBudget: ${kb(100 * 1024)} gz; used ${((before / (100 * 1024)) * 100).toFixed(1)}%`);

/**
 * The checkout page's JavaScript and CSS, file by file, gzipped and as sent (brotli): what each page
 * configuration loads before the shopper can type (the head markup the server renders for it:
 * entry, stylesheet, modulepreload hints) and what the page reaches on demand after. Run after
 * `npm run build`: `npm run bench:size`. The budget itself is test/budget/checkout-size.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadCheckoutAssets, type PagePreloads } from '../src/http/checkout-page/assets';

const web = path.resolve(import.meta.dirname, '../dist/web');
const assets = loadCheckoutAssets(web);
if (!assets) throw new Error('dist/web has no build manifest: run `npm run build` first');
const file = (src: string) => path.join(web, src.replace(/^\//, ''));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KB`;

const table = (title: string, sources: Iterable<string>) => {
  const rows = [...sources]
    .map((src) => ({ src, raw: readFileSync(file(src)).length, gz: gzipSync(readFileSync(file(src)), { level: 9 }).length, br: readFileSync(`${file(src)}.br`).length }))
    .sort((a, b) => b.gz - a.gz);
  console.log(`\n${title}`);
  for (const row of rows) console.log(`${kb(row.gz)} gz ${kb(row.br)} br ${kb(row.raw)} raw  ${row.src}`);
  const total = (key: 'gz' | 'br') => rows.reduce((sum, row) => sum + row[key], 0);
  console.log(`${kb(total('gz'))} gz ${kb(total('br'))} br  total`);
};

const configurations: Record<string, PagePreloads> = {
  'test processor': { builtinCard: true, braintree: null },
  'Braintree (card and Google Pay)': { builtinCard: false, braintree: { card: true, googlePay: true } },
};
for (const [name, preloads] of Object.entries(configurations)) table(`${name}: before the shopper can type`, assets.files(preloads));

// A session with every shop option (promotion code, shipping choice, addresses, quantity stepper, custom fields) adds their chunks.
const manifest = JSON.parse(readFileSync(path.join(web, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[]; css?: string[] }>;
const shopFiles = new Set<string>();
const visitShop = (key: string) => {
  const src = `/${manifest[key]!.file}`;
  if (shopFiles.has(src)) return;
  shopFiles.add(src);
  for (const css of manifest[key]!.css ?? []) shopFiles.add(`/${css}`);
  for (const imported of manifest[key]!.imports ?? []) visitShop(imported);
};
Object.keys(manifest).filter((key) => /checkout\/shop\/(?:PromotionCode|ShippingChoice|AddressForm|QuantityStepper|CustomFields)\.tsx$/.test(key)).forEach(visitShop);
for (const [name, preloads] of Object.entries(configurations)) {
  table(`${name} with every shop option (promotion code, shipping choice, addresses, quantity stepper, custom fields)`, new Set([...assets.files(preloads), ...shopFiles]));
}

// Every chunk reachable through dynamic import() from what any configuration loads first.
const first = new Set(Object.values(configurations).flatMap((p) => assets.files(p)));
const onDemand = new Set<string>();
const visit = (src: string) => {
  for (const match of readFileSync(file(src), 'utf8').matchAll(/["'`](?:\.\/|\/?assets\/)([\w.-]+\.js)["'`]/g)) {
    const next = `/assets/${match[1]}`;
    if (first.has(next) || onDemand.has(next)) continue;
    onDemand.add(next);
    visit(next);
  }
};
[...first].filter((src) => src.endsWith('.js')).forEach(visit);
table('On demand (error reporting once idle, device data and 3-D Secure for paying):', onDemand);

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
    .map((src) => ({
      src,
      raw: readFileSync(file(src)).length,
      gz: gzipSync(readFileSync(file(src)), { level: 9 }).length,
      br: readFileSync(`${file(src)}.br`).length,
    }))
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
const shopFiles = assets.chunks(
  ['PromotionCode', 'ShippingChoice', 'AddressForm', 'QuantityStepper', 'CustomFields'].map((part) => new RegExp(`checkout/shop/${part}\\.tsx$`)),
);
for (const [name, preloads] of Object.entries(configurations)) {
  table(
    `${name} with every shop option (promotion code, shipping choice, addresses, quantity stepper, custom fields)`,
    new Set([...assets.files(preloads), ...shopFiles]),
  );
}

// A session offering a wallet button (Apple Pay, PayPal, Venmo) adds its chunks (with React, after
// the page hydrated); on Braintree, with its braintree-web component.
const walletOnlyBraintree: PagePreloads = { builtinCard: false, braintree: { card: false, googlePay: false } };
for (const [wallet, area, component] of [
  ['Apple Pay', /checkout\/apple-pay\/ApplePayArea\.tsx$/, /braintree-web\/(?:dist\/browser\/)?apple-pay(?:\/index)?\.js$/],
  ['PayPal', /checkout\/wallets\/ApprovalWalletArea\.tsx$/, /braintree-web\/(?:dist\/browser\/)?paypal-checkout(?:\/index)?\.js$/],
  ['Venmo', /checkout\/wallets\/ApprovalWalletArea\.tsx$/, /braintree-web\/(?:dist\/browser\/)?venmo(?:\/index)?\.js$/],
] as Array<[string, RegExp, RegExp]>) {
  table(`test processor with the ${wallet} button`, new Set([...assets.files(configurations['test processor']!), ...assets.chunks([area])]));
  table(`Braintree, ${wallet} only, with its button`, new Set([...assets.files(walletOnlyBraintree), ...assets.chunks([area, component])]));
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

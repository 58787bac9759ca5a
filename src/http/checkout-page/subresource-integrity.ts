/**
 * Subresource Integrity for the checkout page (PCI DSS 4.0 requirement 6.4.3): every first-party
 * `<script src>` and `<link rel=modulepreload|stylesheet href>` under /assets/ gets
 * `integrity="sha384-…"` and `crossorigin`, and an import map carries the same hashes for every
 * module the page may load later (dynamic imports and the modulepreload links Vite's preload helper
 * adds at run time), so a chunk altered on disk or on the way is refused by the browser.
 *
 * Pure: it works on a string of head markup and a lookup of hashes computed once at start
 * (built-assets.ts), never per request, so any renderer of the page can apply it.
 */

/** What the rewrite needs from the build: the SRI value of a served path, and the page's module chunks. */
export interface AssetIntegrity {
  /** `sha384-…` of the file served at `path` (e.g. `/assets/checkout-abc.js`), undefined when not ours. */
  integrityOf(path: string): string | undefined;
  /** Served paths of every JavaScript module the page may load, statically or at run time. */
  modules: readonly string[];
}

const ASSET_PREFIX = '/assets/';

/** The tags whose URL attribute SRI applies to; `link` only for module preloads and stylesheets. */
function urlAttributeOf(tag: string, attributes: Map<string, string | null>): string | null {
  if (tag === 'script') return 'src';
  const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
  return rel.includes('modulepreload') || rel.includes('stylesheet') ? 'href' : null;
}

const attributePattern = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function parseAttributes(text: string): Map<string, string | null> {
  const attributes = new Map<string, string | null>();
  for (const match of text.matchAll(attributePattern)) {
    attributes.set(match[1]!.toLowerCase(), match[2] ?? match[3] ?? match[4] ?? null);
  }
  return attributes;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function serialize(tag: string, attributes: Map<string, string | null>, selfClosing: boolean): string {
  const parts = [...attributes].map(([name, value]) => (value === null ? name : `${name}="${escapeAttribute(value)}"`));
  return `<${tag}${parts.length ? ` ${parts.join(' ')}` : ''}${selfClosing ? ' /' : ''}>`;
}

/** The path of a first-party asset URL (`/assets/x.js`, or absolute on the page's own origin), or null. */
function assetPath(url: string): string | null {
  const pathOnly = url.split(/[?#]/)[0]!;
  return pathOnly.startsWith(ASSET_PREFIX) ? pathOnly : null;
}

/**
 * The import map that gives every module chunk its integrity (Chromium 127+, Safari 18+, Firefox
 * 138+ honour `integrity` in import maps; older browsers ignore the key and still load the page).
 * Returns the element and its CSP hash source, since an inline import map is subject to script-src.
 */
export async function integrityImportMap(assets: AssetIntegrity): Promise<{ element: string; cspSource: string }> {
  const integrity: Record<string, string> = {};
  for (const path of [...assets.modules].sort()) {
    const value = assets.integrityOf(path);
    if (value) integrity[path] = value;
  }
  const json = JSON.stringify({ imports: {}, integrity }).replace(/</g, '\\u003c');
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(json));
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  return { element: `<script type="importmap">${json}</script>`, cspSource: `'sha256-${base64}'` };
}

/**
 * Adds `integrity` and `crossorigin` to every first-party script, module preload and stylesheet in
 * `html`; tags that already carry an `integrity` keep it. When `importMap` is given it is inserted
 * before the first script or link, so that it governs every module load that follows.
 *
 * @example addSubresourceIntegrity('<script type="module" src="/assets/a.js"></script>', assets)
 *   // '<script type="module" src="/assets/a.js" integrity="sha384-…" crossorigin>…'
 */
export function addSubresourceIntegrity(html: string, assets: AssetIntegrity, importMap?: { element: string }): string {
  let insertedMap = !importMap;
  return html.replace(/<(script|link)\b([^>]*?)(\/?)>/gi, (whole, rawTag: string, attributeText: string, slash: string) => {
    const tag = rawTag.toLowerCase();
    const attributes = parseAttributes(attributeText);
    let prefix = '';
    if (!insertedMap && attributes.get('type') !== 'importmap') {
      prefix = importMap!.element;
      insertedMap = true;
    }
    const urlAttribute = urlAttributeOf(tag, attributes);
    const url = urlAttribute ? attributes.get(urlAttribute) : null;
    const path = url ? assetPath(url) : null;
    const integrity = path ? assets.integrityOf(path) : undefined;
    if (!integrity || attributes.has('integrity')) return prefix + whole;
    attributes.set('integrity', integrity);
    // SRI needs a CORS fetch; same-origin, so anonymous sends no credentials anywhere new.
    if (!attributes.has('crossorigin')) attributes.set('crossorigin', null);
    return prefix + serialize(tag, attributes, slash === '/');
  });
}

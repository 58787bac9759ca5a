import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AssetIntegrity } from './subresource-integrity';

/** One entry of Vite's build manifest (`dist/web/.vite/manifest.json`, `build.manifest: true`). */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/** A file of the checkout page's build, as the page may load it. */
export interface BuiltChunk {
  /** Served path, `/assets/checkout-abc123.js`. */
  path: string;
  /** The manifest key: the source module (`checkout/main.tsx`, `../node_modules/braintree-web/…`) or a shared chunk (`_format-x.js`). */
  source: string;
  kind: 'script' | 'stylesheet';
  /** Loaded with the page's HTML, or only when the page asks for it (a dynamic import). */
  loading: 'page' | 'on_demand';
  /** The manifest keys of the dynamic entries that pull this chunk in (empty for `page` chunks). */
  neededBy: string[];
  sha384: string;
  size: number;
}

/** The checkout page's part of the build, hashed once at start. */
export interface CheckoutBuild extends AssetIntegrity {
  chunks: BuiltChunk[];
}

/** The checkout page's entry: its HTML is rendered by the server (checkout-page/render.ts). */
const CHECKOUT_ENTRY = 'checkout/main.tsx';

/** An SRI value (`sha384-…`) of the bytes; the integrity monitor hashes what is served with it too. */
export const sha384 = (bytes: Buffer | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/**
 * Reads the build in `webRoot` once: hashes every file under assets/ (for SRI) and walks the
 * manifest's chunk graph from the checkout entry, so the inventory lists what the build really
 * holds. Returns null when the page is not built (or was built without a manifest).
 */
/** Vite's build manifest of `webRoot` (dist/web), or null before `npm run build`. */
export function readManifest(webRoot: string): Record<string, ManifestChunk> | null {
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  return existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>) : null;
}

export function readCheckoutBuild(webRoot: string): CheckoutBuild | null {
  const assetsDir = path.join(webRoot, 'assets');
  const manifest = readManifest(webRoot) ?? {};
  if (!existsSync(assetsDir) || !manifest[CHECKOUT_ENTRY]) return null;

  const files = new Map<string, { sha384: string; size: number }>();
  for (const name of readdirSync(assetsDir)) {
    const bytes = readFileSync(path.join(assetsDir, name));
    files.set(`/assets/${name}`, { sha384: sha384(bytes), size: bytes.length });
  }

  const chunks = new Map<string, BuiltChunk>();
  const add = (servedPath: string, source: string, kind: BuiltChunk['kind'], loading: BuiltChunk['loading'], neededBy: string | null) => {
    const existing = chunks.get(servedPath);
    if (existing) {
      if (loading === 'page') existing.loading = 'page';
      if (neededBy && !existing.neededBy.includes(neededBy)) existing.neededBy.push(neededBy);
      return;
    }
    const file = files.get(servedPath);
    if (!file) throw new Error(`the build manifest names ${servedPath}, which is not in ${assetsDir}`);
    chunks.set(servedPath, { path: servedPath, source, kind, loading, neededBy: neededBy ? [neededBy] : [], ...file });
  };
  // Static imports load with the page (or with the dynamic entry that imports them).
  const walk = (key: string, loading: BuiltChunk['loading'], neededBy: string | null, seen: Set<string>) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key]!;
    add(`/${chunk.file}`, key, 'script', loading, neededBy);
    for (const css of chunk.css ?? []) add(`/${css}`, key, 'stylesheet', loading, neededBy);
    for (const imported of chunk.imports ?? []) walk(imported, loading, neededBy, seen);
  };
  walk(CHECKOUT_ENTRY, 'page', null, new Set());
  for (const dynamic of manifest[CHECKOUT_ENTRY]!.dynamicImports ?? []) walkDynamic(dynamic, new Set());
  function walkDynamic(key: string, visited: Set<string>) {
    if (visited.has(key)) return;
    visited.add(key);
    walk(key, 'on_demand', key, new Set());
    for (const nested of manifest[key]?.dynamicImports ?? []) walkDynamic(nested, visited);
  }

  const list = [...chunks.values()].sort((a, b) => a.path.localeCompare(b.path));
  return {
    chunks: list,
    integrityOf: (servedPath) => files.get(servedPath)?.sha384,
    modules: list.filter((chunk) => chunk.kind === 'script').map((chunk) => chunk.path),
  };
}

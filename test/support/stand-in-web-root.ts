import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A stand-in for the built pages (`npm run build`), enough for the server to serve them: the
 * dashboard's HTML, the build manifest the checkout page's head is rendered from (the entry, the
 * app and the test processor's card chunks), and those chunks' files. Returns its directory.
 */
export function standInWebRoot(): string {
  const webRoot = mkdtempSync(path.join(tmpdir(), 'tillpoint-web-'));
  mkdirSync(path.join(webRoot, 'dashboard'), { recursive: true });
  writeFileSync(path.join(webRoot, 'dashboard', 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  const chunks: Record<string, string> = {
    'checkout/hydrate.tsx': 'assets/hydrate-1234.js',
    'checkout/card-form/builtin-engine.ts': 'assets/card-1234.js',
    'checkout/test-processor-client.ts': 'assets/test-processor-1234.js',
  };
  const manifest: Record<string, object> = {
    'checkout/main.tsx': { file: 'assets/app-1234.js', src: 'checkout/main.tsx', isEntry: true, dynamicImports: Object.keys(chunks) },
  };
  for (const [src, file] of Object.entries(chunks)) manifest[src] = { file, src, isDynamicEntry: true };
  mkdirSync(path.join(webRoot, '.vite'), { recursive: true });
  writeFileSync(path.join(webRoot, '.vite', 'manifest.json'), JSON.stringify(manifest));
  mkdirSync(path.join(webRoot, 'assets'));
  for (const [i, file] of ['assets/app-1234.js', ...Object.values(chunks)].entries()) writeFileSync(path.join(webRoot, file), `console.log(${i + 1})`);
  return webRoot;
}

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The `tillpoint` command bundled into JavaScript, for the tests that start it again and again: a
 * process of it starts on about a third less CPU than `bin/tillpoint.js`, which resolves and loads
 * every TypeScript module through tsx's loader thread on each start. Split at the dynamic imports,
 * so a command loads only what it runs. Made from the sources
 * by the global setup before every run (about a second), so it is never older than they are.
 * `bin/tillpoint.js` itself is still what a user runs, and what `packages-install` and
 * `container-start` start.
 */
const outdir = path.join(root, 'node_modules', '.cache', 'tillpoint-tests');
export const cliBundle = path.join(outdir, 'tillpoint.mjs');
/** The same for the crash-recovery suite's server (test/process/crashing-server.ts). */
export const crashingServerBundle = path.join(outdir, 'crashing-server.mjs');

/**
 * Each module keeps its own `import.meta.url`, so the files it finds beside it (migrations, the
 * PGlite thread, locales, `dist/web`) are found where they are in the sources.
 */
const ownModuleUrls: Plugin = {
  name: 'own-module-urls',
  setup(bundler) {
    bundler.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

/**
 * Each file is written beside its place and renamed into it, so a process started by another
 * Vitest run beside this one never reads a file half written.
 */
export async function buildCliBundle(): Promise<void> {
  const { outputFiles } = await build({
    write: false,
    entryPoints: { tillpoint: path.join(root, 'src/cli/main.ts'), 'crashing-server': path.join(root, 'test/process/crashing-server.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    plugins: [ownModuleUrls],
    logLevel: 'warning',
  });
  for (const file of outputFiles) {
    await mkdir(path.dirname(file.path), { recursive: true });
    const writing = `${file.path}.${process.pid}.tmp`;
    await writeFile(writing, file.contents);
    await rename(writing, file.path);
  }
}

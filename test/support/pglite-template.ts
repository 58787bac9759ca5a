import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A new PGlite database costs an initdb: seconds of WebAssembly, paid by every suite and every
 * `tillpoint` process the tests start on a fresh DATA_DIR. The tests pay it once per PGlite
 * version instead: the global setup makes one empty, just-initialized data directory (and its
 * dump), and each test database starts as a copy. A copy is exactly what initdb would have made:
 * migrations, the demo account and everything else still run as on a first start.
 */
const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..');
const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
const home = path.join(tmpdir(), `tillpoint-test-pglite-${version}`);

/** The initialized, empty data directory, and the same as PGlite's dump (for in-memory databases). */
export const pgliteTemplate = { dir: path.join(home, 'data'), dump: path.join(home, 'data.tar') };

/** Makes the template unless an earlier run made it (vitest's global setup). */
export async function ensurePgliteTemplate(): Promise<void> {
  if (existsSync(pgliteTemplate.dump)) return;
  const { PGlite } = await import('@electric-sql/pglite');
  // Made beside and renamed into place, so runs side by side never see half a template.
  const making = mkdtempSync(path.join(tmpdir(), 'tillpoint-test-pglite-making-'));
  const db = await PGlite.create({ dataDir: path.join(making, 'data') });
  const dump = await db.dumpDataDir('none');
  await db.close();
  writeFileSync(path.join(making, 'data.tar'), Buffer.from(await dump.arrayBuffer()));
  try {
    renameSync(making, home);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another run made it first
  }
}

/** A fresh DATA_DIR holding the template's initialized, empty database. */
export function seededDataDir(prefix = 'tillpoint-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(pgliteTemplate.dir, dir, { recursive: true });
  return dir;
}

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A new PGlite database costs an initdb: seconds of WebAssembly, paid by every suite and every
 * `tillpoint` process the tests start on a fresh DATA_DIR. The tests pay it once per PGlite
 * version instead: the global setup makes one empty, just-initialized data directory (and its
 * dump), and each test database starts as a copy. A copy is exactly what initdb would have made:
 * migrations, the demo account and everything else still run as on a first start.
 *
 * Most suites then run every migration before their first test (about half a second of CPU each
 * on PGlite): they start from a second template instead, the first with the migrations of this
 * checkout applied by the migrator itself (`migrate`), made once per set of migrations. The
 * migrations' own tests, and the first starts that are under test, keep the empty one.
 */
const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..');
const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
const home = path.join(tmpdir(), `tillpoint-test-pglite-${version}`);
const migrationsFolder = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../src/persistence/migrations');
const migrationsDigest = createHash('sha256')
  .update(
    JSON.stringify(
      readdirSync(migrationsFolder)
        .filter((file) => file.endsWith('.sql'))
        .sort()
        .map((file) => [file, readFileSync(path.join(migrationsFolder, file), 'utf8')]),
    ),
  )
  .digest('hex')
  .slice(0, 16);
const migratedHome = path.join(tmpdir(), `tillpoint-test-pglite-${version}-migrated-${migrationsDigest}`);

/** The initialized, empty data directory, and the same as PGlite's dump (for in-memory databases). */
export const pgliteTemplate = { dir: path.join(home, 'data'), dump: path.join(home, 'data.tar') };

/** The same with every migration of this checkout applied. */
export const migratedPgliteTemplate = { dir: path.join(migratedHome, 'data'), dump: path.join(migratedHome, 'data.tar') };

/** Makes the templates unless an earlier run made them (vitest's global setup). */
export async function ensurePgliteTemplate(): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (!existsSync(pgliteTemplate.dump)) {
    await makeTemplate(home, async (dataDir) => {
      const db = await PGlite.create({ dataDir });
      return db;
    });
  }
  if (!existsSync(migratedPgliteTemplate.dump)) {
    const { openPglite } = await import('../../src/persistence/sql-client');
    const { migrate } = await import('../../src/persistence/migrations/index');
    await makeTemplate(migratedHome, async (dataDir) => {
      cpSync(pgliteTemplate.dir, dataDir, { recursive: true });
      const client = await openPglite(dataDir);
      await migrate(client);
      await client.close();
      return PGlite.create({ dataDir });
    });
  }
}

/** Makes a template in a folder beside `target` and renames it into place, so runs side by side never see half a template. */
async function makeTemplate(target: string, open: (dataDir: string) => Promise<{ dumpDataDir(compression: 'none'): Promise<Blob>; close(): Promise<void> }>) {
  const making = mkdtempSync(path.join(tmpdir(), 'tillpoint-test-pglite-making-'));
  const db = await open(path.join(making, 'data'));
  const dump = await db.dumpDataDir('none');
  await db.close();
  writeFileSync(path.join(making, 'data.tar'), Buffer.from(await dump.arrayBuffer()));
  try {
    renameSync(making, target);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another run made it first
  }
}

/**
 * A fresh DATA_DIR holding the template's initialized, empty database, or with `migrated` its
 * migrated one (for suites whose first start is not what they test).
 */
export function seededDataDir(prefix = 'tillpoint-test-', options: { migrated?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync((options.migrated ? migratedPgliteTemplate : pgliteTemplate).dir, dir, { recursive: true });
  return dir;
}

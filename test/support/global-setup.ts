import { randomBytes } from 'node:crypto';
import { buildCliBundle } from './cli-bundle';
import { dropRunSchemas } from './databases';
import { ensurePgliteTemplate } from './pglite-template';

/**
 * Once per `vitest run`, before any suite: the PGlite template every test database starts from, and
 * the `tillpoint` command the process suites start (cli-bundle.ts). The run's id names its schemas
 * on the PostgreSQL server (TEST_DATABASE_URL), which its end removes.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env.TEST_RUN_ID ??= randomBytes(4).toString('hex');
  await Promise.all([ensurePgliteTemplate(), buildCliBundle()]);
  return async () => {
    if (process.env.TEST_DATABASE_URL) await dropRunSchemas(process.env.TEST_DATABASE_DIRECT_URL || process.env.TEST_DATABASE_URL);
  };
}

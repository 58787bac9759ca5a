import { randomBytes } from 'node:crypto';
import { buildCliBundle } from './cli-bundle';
import { ensurePgliteTemplate } from './pglite-template';

/**
 * Once per `vitest run`, before any suite: the PGlite template every test database starts from, and
 * the `tillpoint` command the process suites start (cli-bundle.ts). The run gets a mark of its own
 * for the schemas and roles its suites make on a PostgreSQL server, dropped when it ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  process.env.TILLPOINT_TEST_RUN = randomBytes(3).toString('hex');
  await Promise.all([ensurePgliteTemplate(), buildCliBundle()]);
  return async () => {
    const direct = process.env.TEST_DATABASE_DIRECT_URL || process.env.TEST_DATABASE_URL;
    if (!direct) return;
    const { dropSuiteObjects, suitePrefix } = await import('./databases');
    await dropSuiteObjects(direct, suitePrefix());
  };
}

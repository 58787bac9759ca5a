import { buildCliBundle } from './cli-bundle';
import { ensurePgliteTemplate } from './pglite-template';

/**
 * Once per `vitest run`, before any suite: the PGlite template every test database starts from, and
 * the `tillpoint` command the process suites start (cli-bundle.ts).
 */
export default async function setup(): Promise<void> {
  await Promise.all([ensurePgliteTemplate(), buildCliBundle()]);
}

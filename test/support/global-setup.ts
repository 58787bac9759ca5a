import { ensurePgliteTemplate } from './pglite-template';

/** Once per `vitest run`, before any suite: the PGlite template every test database starts from. */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}

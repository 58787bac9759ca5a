import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The process suites (test/process) start first: they spend minutes waiting on real servers (a
 * lease to expire, a restart), and begun last they would leave one worker alone at the end.
 */
class ProcessSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isProcess = (file: TestSpecification) => file.moduleId.includes('/test/process/');
    return [...sorted.filter(isProcess), ...sorted.filter((file) => !isProcess(file))];
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx', 'test/**/*.test.ts', 'sdk/node/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist', 'sdk/node/dist', 'e2e'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Three workers on CI's two cores: the process suites, which start first, spend most of their
    // minutes waiting on servers they started (a lease to run out, a restart), and the third worker
    // runs integration suites on the core they leave idle.
    maxWorkers: 3,
    // Suites share their worker's loaded modules instead of importing the server again per file (about
    // 40 % less CPU for the suite); each suite opens its own database and server, and keeps no state
    // in modules.
    isolate: false,
    sequence: { sequencer: ProcessSuitesFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

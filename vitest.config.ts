import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The process suites (test/process) start first: they spend minutes waiting on real servers (a
 * lease to expire, a restart), and begun last they would leave one worker alone at the end.
 *
 * The suites of the web apps that run in a DOM (`@vitest-environment happy-dom`) come last, all
 * together: a worker is reused only while the next file in the queue has its environment, so each
 * of them met among node suites ended a worker and started a new one, which imported the server's
 * modules again (21 workers in a run instead of 4).
 */
class ProcessSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isProcess = (file: TestSpecification) => file.moduleId.includes('/test/process/');
    const inDom = (file: TestSpecification) => readFileSync(file.moduleId, 'utf8').slice(0, 500).includes('@vitest-environment happy-dom');
    const dom = sorted.filter(inDom);
    const node = sorted.filter((file) => !dom.includes(file));
    return [...node.filter(isProcess), ...node.filter((file) => !isProcess(file)), ...dom];
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

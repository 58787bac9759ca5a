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

const everySuite = ['src/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx', 'test/**/*.test.ts', 'sdk/node/test/**/*.test.ts'];
const notSuites = ['**/node_modules/**', 'dist', 'sdk/node/dist', 'e2e'];

/**
 * The parts `npm test` runs as Vitest runs of their own (docs/testing.md), picked by TEST_PART; without
 * it, every suite. `timed`: the suites that hold the product to a time bound (real servers stopped
 * within a shutdown budget, crashed and restarted; lock waits), run on a machine loaded by nothing but
 * them. `refusals`: suites of requests refused or answered without a change, no clock but a fake one,
 * which use the cores the timed suites leave idle. `suites`: the rest.
 */
const parts: Record<string, string[]> = {
  timed: ['test/process/**/*.test.ts', 'test/integration/lock-waits.test.ts'],
  refusals: [
    'test/integration/fuzz-every-route.test.ts',
    'test/integration/restricted-api-keys.test.ts',
    'test/integration/refused-input.test.ts',
    'test/integration/utf8-input.test.ts',
    'test/integration/url-control-characters.test.ts',
    'test/integration/edge-refusals.test.ts',
  ],
};
const part = process.env.TEST_PART;
if (part !== undefined && part !== 'suites' && !(part in parts)) throw new Error(`TEST_PART is timed, refusals or suites, not ${part}`);

export default defineConfig({
  test: {
    include: part !== undefined && part !== 'suites' ? parts[part] : everySuite,
    exclude: part === 'suites' ? [...notSuites, ...Object.values(parts).flat()] : notSuites,
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

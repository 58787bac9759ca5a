/**
 * Runs the PostgreSQL suites through PgBouncer in transaction pooling mode (`npm run test:pgbouncer`):
 * starts Debian's pgbouncer (installed when missing) in front of the server TEST_DATABASE_URL names,
 * runs a command with TEST_DATABASE_URL pointing at the bouncer and TEST_DATABASE_DIRECT_URL at the
 * server (PGlite left out: TEST_DATABASES=postgres), and stops the bouncer.
 *
 *   npx tsx scripts/with-pgbouncer.ts                       the suites below
 *   npx tsx scripts/with-pgbouncer.ts npx vitest run test/integration/refunds.test.ts
 *
 * Without TEST_DATABASE_URL there is nothing to stand in front of: it says so and succeeds, unless
 * REQUIRE_POSTGRES=1 (CI).
 */
import { spawn } from 'node:child_process';
import { startPgBouncer } from '../test/support/pgbouncer';

/**
 * What `npm test` runs through the pooler (docs/testing.md): paying, payments made at once, one
 * payment per session, refunds, webhooks and their worker, idempotency, API key changes heard over
 * the direct connection, and the bounds on waits.
 */
export const pooledSuites = [
  'test/integration/shopper-payments.test.ts',
  'test/integration/payments-together.test.ts',
  'test/integration/exactly-one-payment.test.ts',
  'test/integration/refunds.test.ts',
  'test/integration/webhooks.test.ts',
  'test/integration/webhook-worker.test.ts',
  'test/integration/idempotency.test.ts',
  'test/integration/api-key-cache.test.ts',
  'test/integration/database-timeouts.test.ts',
  'test/integration/lock-waits.test.ts',
];

const server = process.env.TEST_DATABASE_URL;
if (!server) {
  if (process.env.REQUIRE_POSTGRES === '1') {
    console.error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set');
    process.exit(1);
  }
  console.log('test:pgbouncer: skipped (no TEST_DATABASE_URL: no PostgreSQL server to stand in front of)');
  process.exit(0);
}

const bouncer = await startPgBouncer({ server });
const command = process.argv.length > 2 ? process.argv.slice(2) : ['npx', 'vitest', 'run', ...pooledSuites];
console.log(`PgBouncer (transaction pooling) on 127.0.0.1:${bouncer.port} in front of ${new URL(server).host}: ${command.join(' ')}`);
const child = spawn(command[0]!, command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: bouncer.url(server), TEST_DATABASE_DIRECT_URL: server, TEST_DATABASES: 'postgres' },
});
const stopChild = (signal: NodeJS.Signals) => child.kill(signal);
process.on('SIGINT', stopChild);
process.on('SIGTERM', stopChild);
const code = await new Promise<number>((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
await bouncer.stop();
process.exit(code);

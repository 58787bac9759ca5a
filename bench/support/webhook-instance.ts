/**
 * One Tillpoint instance's webhook worker for `npm run bench:webhooks`, as `tillpoint serve` runs
 * it, over the schema named by argv[2]. Tells the parent `{}` once it polls; SIGTERM stops it.
 */
import { openPostgres } from '../../src/persistence/sql-client';
import { openTillpoint } from '../../src/runtime/open-tillpoint';
import { startWebhookWorker } from '../../src/runtime/webhook-worker';
import { httpWebhookSender } from '../../src/adapters/webhooks/http-sender';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const db = await openPostgres(url, { schema: process.argv[2]! });
const tillpoint = await openTillpoint({ db, publicUrl: 'http://bench.test' });
const worker = startWebhookWorker({
  deps: tillpoint.deps,
  sender: httpWebhookSender(),
  log: { error: (details, message) => console.error(message, details) },
});
process.send!({});
process.on('SIGTERM', async () => {
  await worker.stop();
  await tillpoint.close();
  process.exit(0);
});

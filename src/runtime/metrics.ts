import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DomainEvent } from '../domain/shared/events';
import type { SqlClient } from '../persistence/sql-client';
import type { ReplicaStatus } from '../persistence/replicas';
import type { StoreObserver } from './observed-store';

/**
 * Tillpoint's Prometheus metrics (docs/operations.md lists them with what each one means when it
 * goes wrong). One registry per server, so tests can build several servers in one process. The
 * domain never sees prom-client: outcomes reach these counters through a `StoreObserver` after
 * their transaction commits, HTTP timings through a Fastify hook, and the webhook queue and the
 * pool are read at scrape time.
 */
export interface Metrics {
  registry: Registry;
  /** What the observed store reports to. */
  observer: StoreObserver;
  /** Called by the HTTP layer once per answered request. */
  observeRequest(request: { method: string; route: string; statusCode: number; seconds: number }): void;
  /** The Prometheus text exposition, with its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const paymentOutcomes: Partial<Record<DomainEvent['type'], string>> = {
  'payment.succeeded': 'succeeded',
  'payment.requires_capture': 'authorized',
  'payment.captured': 'captured',
  'payment.canceled': 'canceled',
  'payment.failed': 'failed',
};

const refundOutcomes: Partial<Record<DomainEvent['type'], string>> = {
  'refund.succeeded': 'succeeded',
  'refund.failed': 'failed',
};

export function createMetrics(options: {
  db: SqlClient;
  now?: () => Date;
  /** The read replicas' state (DATABASE_REPLICA_URL), read at scrape time; none by default. */
  replicas?: () => ReplicaStatus[];
}): Metrics {
  const registry = new Registry();
  // process_cpu_*, process_resident_memory_bytes, process_open_fds, nodejs_eventloop_lag_*,
  // nodejs_heap_*, nodejs_gc_duration_seconds, …
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const httpDuration = new Histogram({
    name: 'tillpoint_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template (not the raw URL) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const payments = new Counter({
    name: 'tillpoint_payments_total',
    help: 'Payment outcomes (succeeded, authorized, captured, canceled, failed) by processor and mode',
    labelNames: ['outcome', 'processor', 'mode'] as const,
    registers: [registry],
  });
  const paymentFailures = new Counter({
    name: 'tillpoint_payment_failures_total',
    help: 'Failed payments by failure code (card_declined, processing_error, processor_unavailable, …), processor and mode',
    labelNames: ['failure_code', 'processor', 'mode'] as const,
    registers: [registry],
  });
  const refunds = new Counter({
    name: 'tillpoint_refunds_total',
    help: 'Refund outcomes (succeeded, failed) by mode',
    labelNames: ['outcome', 'mode'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'tillpoint_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, will retry), abandoned (failed for good)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  const checkoutPageChanges = new Counter({
    name: 'tillpoint_checkout_page_changes_total',
    help: 'Differences found between the checkout page as served and its approved baseline (PCI DSS 11.6.1), by mode',
    labelNames: ['mode'] as const,
    registers: [registry],
  });

  // Read at scrape time; one query per scrape, shared by both gauges.
  const now = options.now ?? (() => new Date());
  let queue: Promise<{ depth: number; oldestDueSeconds: number } | null> | null = null;
  const readQueue = () =>
    (queue ??= options.db
      .query<{ depth: string | number; oldest_due: Date | string | null }>(
        `SELECT count(*) AS depth, min(next_attempt_at) FILTER (WHERE next_attempt_at <= $1) AS oldest_due
           FROM webhook_deliveries WHERE status IN ('pending', 'retrying')`,
        [now()],
      )
      .then(({ rows }) => {
        const row = rows[0]!;
        const oldest = row.oldest_due ? new Date(row.oldest_due).getTime() : null;
        return { depth: Number(row.depth), oldestDueSeconds: oldest === null ? 0 : Math.max(0, (now().getTime() - oldest) / 1000) };
      })
      .catch(() => null));
  new Gauge({
    name: 'tillpoint_database_up',
    help: '1 when the database answered the scrape-time query, 0 when it did not',
    registers: [registry],
    async collect() {
      this.set((await readQueue()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'tillpoint_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (pending or retrying), due or not',
    registers: [registry],
    async collect() {
      const read = await readQueue();
      if (read) this.set(read.depth);
    },
  });
  new Gauge({
    name: 'tillpoint_webhook_oldest_due_age_seconds',
    help: 'How long the oldest due webhook delivery has been waiting past its due time (0 when none is due)',
    registers: [registry],
    async collect() {
      const read = await readQueue();
      if (read) this.set(read.oldestDueSeconds);
    },
  });
  const pool = (field: 'size' | 'inUse' | 'waiting', name: string, help: string) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(options.db.poolStats()[field]);
      },
    });
  pool('size', 'tillpoint_db_pool_connections', 'Database connections open (PGlite: 1)');
  pool('inUse', 'tillpoint_db_pool_in_use', 'Database connections running a query or transaction');
  pool('waiting', 'tillpoint_db_pool_waiting', 'Queries waiting for a free database connection');
  const replicas = options.replicas ?? (() => []);
  new Gauge({
    name: 'tillpoint_db_replica_used',
    help: 'Per read replica (by its place in DATABASE_REPLICA_URL, from 0): 1 while lists and searches read from it, 0 while it is skipped (down, or behind by more than DATABASE_REPLICA_MAX_LAG_MS)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const [index, replica] of replicas().entries()) this.set({ replica: String(index) }, replica.used ? 1 : 0);
    },
  });
  new Gauge({
    name: 'tillpoint_db_replica_lag_seconds',
    help: 'Per read replica: how far behind the primary it is at most, as last checked (absent while unknown)',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      this.reset();
      replicas().forEach((replica, index) => {
        if (replica.lagMs !== null) this.set({ replica: String(index) }, replica.lagMs / 1000);
      });
    },
  });

  const observer: StoreObserver = {
    committed(event) {
      const processor = typeof event.data.processor === 'string' ? event.data.processor : 'unknown';
      const payment = paymentOutcomes[event.type];
      if (payment) {
        payments.inc({ outcome: payment, processor, mode: event.mode });
        if (payment === 'failed') {
          const code = typeof event.data.failure_code === 'string' ? event.data.failure_code : 'unknown';
          paymentFailures.inc({ failure_code: code, processor, mode: event.mode });
        }
      }
      const refund = refundOutcomes[event.type];
      if (refund) refunds.inc({ outcome: refund, mode: event.mode });
      if (event.type === 'checkout_page.changed') checkoutPageChanges.inc({ mode: event.mode });
    },
    webhookAttempt(status) {
      webhookDeliveries.inc({ outcome: status });
    },
  };

  return {
    registry,
    observer,
    observeRequest({ method, route, statusCode, seconds }) {
      httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    async scrape() {
      queue = null;
      try {
        return { contentType: registry.contentType, body: await registry.metrics() };
      } finally {
        queue = null;
      }
    },
  };
}

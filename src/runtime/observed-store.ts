import type { DomainEvent } from '../domain/shared/events';
import type { Store, UnitOfWork } from '../domain/deps';
import type { WebhookDeliveryStatus } from '../domain/webhooks/entities';
import type { WebhookDeliveryRepository, RecordedAttempt } from '../domain/webhooks/ports';
import type { PaymentOutcome } from '../domain/payments/ports';

/** What the runtime learns from committed work: the metrics' only view into the domain. */
export interface StoreObserver {
  /** An event whose transaction committed (a payment succeeded, a refund failed, …). */
  committed(event: DomainEvent): void;
  /** A webhook attempt's outcome was recorded: `delivered`, `retrying` or `abandoned`. */
  webhookAttempt(status: WebhookDeliveryStatus): void;
}

/**
 * The store, reporting to `observer` what each transaction wrote once it has committed: nothing
 * is counted for work that rolled back. The use cases do not change and never know.
 */
export function observeStore(store: Store, observer: StoreObserver): Store {
  return {
    async transaction(work) {
      const events: DomainEvent[] = [];
      const attempts: WebhookDeliveryStatus[] = [];
      const result = await store.transaction((tx) => work(observedUnitOfWork(tx, events, attempts)));
      try {
        for (const event of events) observer.committed(event);
        for (const status of attempts) observer.webhookAttempt(status);
      } catch {
        // Counting must never fail the work it counts.
      }
      return result;
    },
    // Reads write nothing, so there is nothing to count.
    read: (work) => store.read(work),
    readReplica: (work) => store.readReplica(work),
    // One statement, committed when it returns: a payment's intent (no event), or a payment's
    // outcome, whose events count once it reports them written.
    once: (work) =>
      store.once((db) => {
        const payments: UnitOfWork['payments'] = Object.assign(Object.create(db.payments) as UnitOfWork['payments'], {
          recordOutcome: async (outcome: PaymentOutcome) => {
            const recorded = await db.payments.recordOutcome(outcome);
            if (recorded === 'recorded') {
              try {
                for (const event of [outcome.event, outcome.session?.event]) if (event) observer.committed(event);
              } catch {
                // Counting must never fail the work it counts.
              }
            }
            return recorded;
          },
        });
        return work(new Proxy(db, { get: (target, property, receiver) => (property === 'payments' ? payments : Reflect.get(target, property, receiver)) }));
      }),
  };
}

function observedUnitOfWork(tx: UnitOfWork, events: DomainEvent[], attempts: WebhookDeliveryStatus[]): UnitOfWork {
  const eventRepository: UnitOfWork['events'] = Object.assign(Object.create(tx.events) as UnitOfWork['events'], {
    insert: async (event: DomainEvent) => {
      await tx.events.insert(event);
      events.push(event);
    },
  });
  const deliveryRepository: WebhookDeliveryRepository = Object.assign(Object.create(tx.webhookDeliveries) as WebhookDeliveryRepository, {
    recordAttempts: async (recordedAttempts: RecordedAttempt[]) => {
      const written = await tx.webhookDeliveries.recordAttempts(recordedAttempts);
      for (const attempt of recordedAttempts) if (written.has(attempt.deliveryId)) attempts.push(attempt.status);
      return written;
    },
  });
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'events') return eventRepository;
      if (property === 'webhookDeliveries') return deliveryRepository;
      return Reflect.get(target, property, receiver);
    },
  });
}

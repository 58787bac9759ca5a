import type { Store, UnitOfWork } from '../domain/deps';
import { isDatabaseUnreachable, type SqlClient, type SqlExecutor } from './sql-client';
import type { ReplicaSet } from './replicas';
import { accountRepositories } from './stores/team/accounts';
import { apiKeyRepositories } from './stores/team/api-keys';
import { memberRepositories } from './stores/team/members';
import { dashboardSignInRepositories } from './stores/team/dashboard-sign-in';
import { accessRepositories } from './stores/team/access';
import { auditLogRepositories } from './stores/team/audit-log';
import { apiRequestRepositories } from './stores/team/api-requests';
import { dashboardSearchRepositories } from './stores/team/dashboard-search';
import { checkoutSessionRepositories } from './stores/sessions/checkout-sessions';
import { paymentLinkRepositories } from './stores/sessions/payment-links';
import { productRepositories } from './stores/sessions/products';
import { paymentRepositories } from './stores/payments/payments';
import { refundRepositories } from './stores/payments/refunds';
import { disputeRepositories } from './stores/disputes/disputes';
import { operationsInFlightRepository } from './stores/payments/operations-in-flight';
import { eventRepositories } from './stores/webhooks/events';
import { webhookDeliveryRepository, webhookEndpointRepository } from './stores/webhooks/endpoints-and-deliveries';
import { flagStores } from './stores/flags/flags';
import { checkoutPageIntegrityRepository } from './stores/checkout-page/integrity';
import { discountRepositories } from './stores/pricing/discounts';
import { billingRepositories } from './stores/billing/billing';
import { billingPortalRepositories } from './stores/billing/portal-sessions';
import { taxRateRepositories } from './stores/pricing/tax-rates';
import { customerRepositories, savedPaymentMethodRepositories } from './stores/customers/customers';

type Repositories = (db: SqlExecutor) => object;

/**
 * A unit of work whose repositories are built on first use: a call touches two or three of the
 * dozens there are, and building them all (hundreds of closures) on every transaction was a
 * visible share of a merchant API call's CPU. Each group's keys are learnt once, up front.
 */
function lazyUnitOfWork(groups: Repositories[]): (db: SqlExecutor) => UnitOfWork {
  const probe: SqlExecutor = { query: () => Promise.reject(new Error('not a database')), exec: () => Promise.reject(new Error('not a database')) };
  const prototype = {};
  groups.forEach((group, index) => {
    for (const key of Object.keys(group(probe))) {
      Object.defineProperty(prototype, key, {
        enumerable: true,
        get(this: { db: SqlExecutor; built: object[] }) {
          const built = (this.built[index] ??= group(this.db)) as Record<string, unknown>;
          return built[key];
        },
      });
    }
  });
  return (db) => Object.assign(Object.create(prototype) as UnitOfWork, { db, built: [] });
}

const webhookRepositories = (db: SqlExecutor) => ({
  webhookEndpoints: webhookEndpointRepository(db),
  webhookDeliveries: webhookDeliveryRepository(db),
});

const operationsInFlightRepositories = (db: SqlExecutor) => ({ operationsInFlight: operationsInFlightRepository(db) });

const checkoutPageRepositories = (db: SqlExecutor) => ({ checkoutPage: checkoutPageIntegrityRepository(db) });

/** Each store of persistence/stores, by area; together they are the whole unit of work. */
const groups = [
  accountRepositories,
  apiKeyRepositories,
  memberRepositories,
  dashboardSignInRepositories,
  accessRepositories,
  auditLogRepositories,
  apiRequestRepositories,
  dashboardSearchRepositories,
  checkoutSessionRepositories,
  paymentLinkRepositories,
  productRepositories,
  customerRepositories,
  savedPaymentMethodRepositories,
  paymentRepositories,
  refundRepositories,
  disputeRepositories,
  operationsInFlightRepositories,
  eventRepositories,
  webhookRepositories,
  flagStores,
  checkoutPageRepositories,
  discountRepositories,
  taxRateRepositories,
  billingRepositories,
  billingPortalRepositories,
] as const;

/** The domain's unit of work over one SQL transaction. */
export const unitOfWork = lazyUnitOfWork([...groups]);

// The groups together must be a whole unit of work (a compile-time check).
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Groups = Intersection<ReturnType<(typeof groups)[number]>>;
type Whole<T extends UnitOfWork> = T;
export type SqlUnitOfWork = Whole<Groups>;

/** A read replica's failure that the primary should answer instead: unreachable, too slow, or a read cancelled by the replay it conflicted with. */
function replicaFailed(error: unknown): boolean {
  return isDatabaseUnreachable(error) || (error as { code?: unknown } | null)?.code === '40001';
}

/** The domain's `Store` over a SQL database, and its read replicas (`replicas.ts`) if it has any. */
export function sqlStore(db: SqlClient, replicas?: ReplicaSet): Store {
  const reader = unitOfWork(db);
  const replicaReaders = new Map<SqlClient, UnitOfWork>();
  return {
    transaction: (work) => db.transaction((tx) => work(unitOfWork(tx))),
    read: (work) => work(reader),
    async readReplica(work) {
      const replica = replicas?.pick();
      if (!replica) return work(reader);
      let replicaReader = replicaReaders.get(replica);
      if (!replicaReader) {
        replicaReader = unitOfWork(replica);
        replicaReaders.set(replica, replicaReader);
      }
      try {
        return await work(replicaReader);
      } catch (error) {
        if (!replicaFailed(error)) throw error;
        replicas!.lost(replica);
        return work(reader);
      }
    },
    once: (work) => work(reader),
  };
}

import type { BackgroundWork } from './shared/background-work';
import type { Mode } from './shared/events';
import type { PasswordHasher, TeamRepositories, AccountRepository, ApiKeyRepository } from './team/ports';
import type { OperationsInFlightRepository, PaymentRepository, RefundRepository, ReconciliationTimings } from './payments/ports';
import type { Clock } from './shared/clock';
import type { CheckoutSessionRepository, PaymentLinkRepository, ProductRepository, PriceRepository } from './sessions/ports';
import type { EventRepository, WebhookEndpointRepository, WebhookDeliveryRepository, WebhookUrlPolicy } from './webhooks/ports';
import type { FlagRepository, ExperimentRepository, ExposureRepository, FlagReader } from './flags/ports';
import type { ProcessorDirectory } from './processors/ports';
import type { IdempotencyRecords, RateLimitCounter } from './api-guards/ports';
import type { ApiKeyCache } from './api-guards/api-key-cache';
import type { RateLimitLeases } from './api-guards/rate-limit-leases';
import type { CheckoutPageIntegrityRepository } from './checkout-page/ports';
import type { AccessRepositories, AccessSettings } from './team/access-ports';
import type { DisputeRepository } from './disputes/ports';
import type { CouponRepository, DiscountRedemptionRepository, PromotionCodeRepository, TaxRateRepository } from './pricing/ports';
import type { CustomerRepository, SavedPaymentMethodRepository } from './customers/ports';
import type { AddressFormats } from './addresses/ports';
import type { BillingPortalSessionRepository, InvoiceRepository, SubscriptionRepository, TestClockRepository } from './billing/ports';

/**
 * What the domain needs from persistence. Every use case does its work inside `transaction`, so a
 * state change and its event commit together or not at all.
 */
export interface Store {
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Reads outside a transaction: no BEGIN and COMMIT round trips, each statement on its own
   * snapshot (as in a READ COMMITTED transaction). Only for work that writes nothing.
   */
  read<T>(work: (reader: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Reads that may be a moment behind the latest writes: lists, searches, analytics and exports,
   * never a read that must see what was just written. Served by a read replica when one is
   * configured and at most its bound behind (DATABASE_REPLICA_MAX_LAG_MS), else as `read`.
   */
  readReplica<T>(work: (reader: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Work of exactly one statement, atomic by itself (a conditional write that decides in the
   * database, such as `payments.insertForSession`): no BEGIN and COMMIT round trips.
   */
  once<T>(work: (db: UnitOfWork) => Promise<T>): Promise<T>;
}

export interface UnitOfWork extends TeamRepositories, AccessRepositories {
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  checkoutSessions: CheckoutSessionRepository;
  payments: PaymentRepository;
  paymentLinks: PaymentLinkRepository;
  events: EventRepository;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  refunds: RefundRepository;
  disputes: DisputeRepository;
  products: ProductRepository;
  prices: PriceRepository;
  customers: CustomerRepository;
  savedPaymentMethods: SavedPaymentMethodRepository;
  flags: FlagRepository;
  experiments: ExperimentRepository;
  exposures: ExposureRepository;
  /** Captures and voids sent to the processor and not yet answered; pending refunds to reconcile. */
  operationsInFlight: OperationsInFlightRepository;
  /** Checkout page baselines, detected changes, CSP reports and script notes (PCI DSS 6.4.3 / 11.6.1). */
  checkoutPage: CheckoutPageIntegrityRepository;
  /** Coupons, promotion codes and which session redeemed which (docs/pricing.md). */
  coupons: CouponRepository;
  promotionCodes: PromotionCodeRepository;
  discountRedemptions: DiscountRedemptionRepository;
  taxRates: TaxRateRepository;
  /** Recurring billing (docs/billing.md). */
  testClocks: TestClockRepository;
  subscriptions: SubscriptionRepository;
  invoices: InvoiceRepository;
  billingPortalSessions: BillingPortalSessionRepository;
}

/** Everything a use case may reach; handed in by the composition root. */
export interface Deps {
  store: Store;
  processors: ProcessorDirectory;
  clock: Clock;
  passwords: PasswordHasher;
  /** Base URL shoppers reach this install at, e.g. https://pay.example.com. */
  publicUrl: string;
  /** Idempotency-Key records and rate-limit counters of the merchant API. */
  idempotency: IdempotencyRecords;
  rateLimits: RateLimitCounter;
  /** This instance's found API keys, and its leased requests of the shared rate-limit counters. */
  apiKeyCache: ApiKeyCache;
  rateLimitLeases: RateLimitLeases;
  /** Merchant API requests allowed per second per account, by mode (design.md §9 by default). */
  rateLimitPerSecond: Record<Mode, number>;
  webhookUrls: WebhookUrlPolicy;
  flags: FlagReader;
  /** Who may sign up, second-factor codes and email (SIGNUP, SMTP_URL). */
  access: AccessSettings;
  /** Every country's address format (addresses/ports.ts), for shipping and billing addresses. */
  addressFormats: AddressFormats;
  /** What use cases started after their answer (receipts); shutdown lets it finish. */
  background: BackgroundWork;
  /** Reconciliation's waits (RECONCILE_* settings); the defaults of reconcile-processing-payments when absent. */
  reconciliation?: ReconciliationTimings;
}

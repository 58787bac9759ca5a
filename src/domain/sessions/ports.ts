import type { AuditEntry } from '../team/entities';
import type { PageRequest } from '../shared/pagination';
import type { Scope } from '../shared/scope';
import type { CheckoutSession, PaymentLink, Product, Price } from './entities';

export interface CheckoutSessionRepository {
  /**
   * One statement, atomic by itself: the session, and `audit` (its audit line) when given, so a
   * new session needs no transaction of its own.
   */
  insert(session: CheckoutSession, audit?: AuditEntry): Promise<void>;
  /** Scoped to an account and mode, so another account's id reads as absent. */
  get(scope: Scope | null, id: string, options?: { forUpdate?: boolean }): Promise<CheckoutSession | null>;
  /** Writes the session if it is still in `expectedStatus`; false when someone else moved it first. */
  update(session: CheckoutSession, expectedStatus: CheckoutSession['status']): Promise<boolean>;
  listOpenExpiredBefore(at: Date, limit: number): Promise<CheckoutSession[]>;
  /** Newest first. */
  list(scope: Scope, page: PageRequest): Promise<CheckoutSession[]>;
}

export interface PaymentLinkRepository {
  insert(link: PaymentLink): Promise<void>;
  getBySlug(slug: string): Promise<PaymentLink | null>;
  get(scope: Scope, id: string): Promise<PaymentLink | null>;
  setActive(scope: Scope, id: string, active: boolean, at: Date): Promise<PaymentLink | null>;
  list(scope: Scope, page: PageRequest): Promise<PaymentLink[]>;
}

export interface ProductRepository {
  insert(product: Product): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Product | null>;
  list(scope: Scope, page: PageRequest): Promise<Product[]>;
  /** Writes the fields a product may change (its definition's unfixed ones). */
  update(product: Product): Promise<void>;
}

/** Which prices `GET /v1/prices` answers: each filter left out matches every price. */
export interface PriceFilter {
  productId?: string;
  active?: boolean;
  type?: 'one_time' | 'recurring';
}

export interface PriceRepository {
  insert(price: Price): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Price | null>;
  /** The scope's prices among `ids`, by id, in one read (another account's id is absent from the map). */
  getMany(scope: Scope, ids: readonly string[]): Promise<Map<string, Price>>;
  /** Newest first. */
  list(scope: Scope, page: PageRequest & PriceFilter): Promise<Price[]>;
  /** Writes the fields a price may change: `active`, `nickname`, `metadata`. */
  update(price: Price): Promise<void>;
}

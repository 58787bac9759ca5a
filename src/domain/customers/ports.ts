import type { PageRequest } from '../shared/pagination';
import type { Scope } from '../shared/scope';
import type { Customer, GuestCustomer, SavedPaymentMethod } from './entities';

export interface CustomerRepository {
  insert(customer: Customer): Promise<void>;
  /** Scoped to an account and mode, so another account's id reads as absent. */
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Customer | null>;
  update(customer: Customer): Promise<void>;
  /**
   * Removes the customer and detaches it from its payments and checkout sessions, which stay.
   * False when there was no such customer.
   */
  delete(scope: Scope, id: string): Promise<boolean>;
  /** Newest first; `email` matches the whole address, ignoring case. */
  list(scope: Scope, filter: { email?: string } & PageRequest): Promise<Customer[]>;
  /**
   * Guests: the emails of succeeded payments without a customer, most recent payment first, up to
   * `limit`; `email` matches the whole address, ignoring case.
   */
  listGuests(scope: Scope, filter: { email?: string; limit: number }): Promise<GuestCustomer[]>;
}

export interface SavedPaymentMethodRepository {
  insert(method: SavedPaymentMethod): Promise<void>;
  get(scope: Scope, id: string): Promise<SavedPaymentMethod | null>;
  /** The customer's saved methods, newest first. */
  listForCustomer(scope: Scope, customerId: string): Promise<SavedPaymentMethod[]>;
  /** False when there was no such method. */
  delete(scope: Scope, id: string): Promise<boolean>;
}

import { customerSnapshot } from '../shared/event-payloads';
import { newEvent, type DomainEvent } from '../shared/events';
import { isValidCustomerEmail } from '../sessions/customer-email';
import { checkMetadata } from '../shared/metadata';
import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import type { Scope } from '../shared/scope';
import type { Customer } from './entities';

/** What a customer is made or updated with; `null` clears a field, absent leaves it. */
export interface CustomerInput {
  email?: string | null;
  name?: string | null;
  metadata?: Record<string, string>;
}

export const CUSTOMER_NAME_MAX = 256;

/** The customer `input` makes of `base`, checked: a valid email, a bounded name, bounded metadata. */
export function applyCustomerInput(base: Customer, input: CustomerInput, now: Date): Customer {
  const next: Customer = { ...base, updatedAt: now };
  if (input.email !== undefined) {
    const email = input.email === null ? null : input.email.trim();
    if (email !== null && !isValidCustomerEmail(email)) {
      throw new TillpointError('parameter_invalid', 'email must be a valid email address', { param: 'email' });
    }
    next.email = email || null;
  }
  if (input.name !== undefined) {
    const name = input.name === null ? null : input.name.trim();
    if (name !== null && name.length > CUSTOMER_NAME_MAX) {
      throw new TillpointError('parameter_invalid', `name must be at most ${CUSTOMER_NAME_MAX} characters`, { param: 'name' });
    }
    next.name = name || null;
  }
  if (input.metadata !== undefined) {
    checkMetadata(input.metadata);
    // Stripe's rule: an empty value removes the key; other keys are kept.
    const merged = { ...base.metadata, ...input.metadata };
    for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key];
    checkMetadata(merged);
    next.metadata = merged;
  }
  return next;
}

/** A new customer of the scope. */
export function buildCustomer(input: CustomerInput, scope: Scope, now: Date): Customer {
  const empty: Customer = {
    id: newId('cus'),
    accountId: scope.accountId,
    mode: scope.mode,
    email: null,
    name: null,
    metadata: {},
    createdAt: now,
    updatedAt: now,
    testClockId: null,
  };
  return applyCustomerInput(empty, input, now);
}

/** The event of a customer's change, with its snapshot as it stands after the change. */
export function customerEvent(customer: Customer, type: 'customer.created' | 'customer.updated' | 'customer.deleted', at: Date): DomainEvent {
  return newEvent(customer, type, customerSnapshot(customer), at);
}

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
  /** Replaces the list; `[]` clears it. */
  preferredLocales?: string[];
  metadata?: Record<string, string>;
}

export const CUSTOMER_NAME_MAX = 256;
export const PREFERRED_LOCALES_MAX = 10;

/** `preferred_locales` checked and written canonically (`pt-br` → `pt-BR`): well-formed BCP 47 tags, at most 10, each once. */
function checkPreferredLocales(tags: string[]): string[] {
  if (tags.length > PREFERRED_LOCALES_MAX) {
    throw new TillpointError('parameter_invalid', `preferred_locales holds at most ${PREFERRED_LOCALES_MAX} languages`, { param: 'preferred_locales' });
  }
  const canonical: string[] = [];
  for (const tag of tags) {
    let written: string | undefined;
    try {
      [written] = Intl.getCanonicalLocales(tag.trim());
    } catch {
      written = undefined;
    }
    if (!written) {
      throw new TillpointError('parameter_invalid', `preferred_locales: '${tag.slice(0, 35)}' is not a language tag such as en, de or pt-BR`, {
        param: 'preferred_locales',
      });
    }
    if (!canonical.includes(written)) canonical.push(written);
  }
  return canonical;
}

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
  if (input.preferredLocales !== undefined) next.preferredLocales = checkPreferredLocales(input.preferredLocales);
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
    preferredLocales: [],
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

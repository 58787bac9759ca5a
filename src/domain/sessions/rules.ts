import { currencyRule, MAX_AMOUNT } from '../shared/currency';
import type { CaptureMethod, PaymentMethodType } from '../payments/entities';
import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import { checkMetadata, METADATA_LIMITS } from '../shared/metadata';
import { sessionLocale } from '../shared/locale';
import type { Scope } from '../shared/scope';
import type { LineItem, CheckoutSession } from './entities';
import type { CustomerCreation, SavePaymentMethodOption } from '../customers/entities';
import type { Deps, UnitOfWork } from '../deps';
import { transitionCheckoutSession } from '../payments/transition';

/** Session lifetime bounds (design.md §9). */
export const SESSION_LIFETIME = {
  defaultMs: 24 * 60 * 60 * 1000,
  minMs: 30 * 60 * 1000,
  maxMs: 24 * 60 * 60 * 1000,
} as const;

export const LIMITS = {
  lineItems: { min: 1, max: 100 },
  quantity: { min: 1, max: 999 },
  name: { min: 1, max: 250 },
  metadata: METADATA_LIMITS,
} as const;

export interface NewCheckoutSession {
  currency: string;
  lineItems: Array<{ name: string; unitAmount: number; quantity: number }>;
  successUrl?: string | null;
  cancelUrl?: string | null;
  captureMethod?: CaptureMethod;
  paymentMethodTypes?: PaymentMethodType[];
  customerEmail?: string | null;
  /** An existing customer of the scope (checked by the use case). */
  customerId?: string | null;
  customerCreation?: CustomerCreation;
  paymentMethodSave?: SavePaymentMethodOption | null;
  /** `auto` (default), a supported locale, or a tag one serves (`es-MX` → `es`); see locale.ts. */
  locale?: string | null;
  metadata?: Record<string, string>;
  clientReferenceId?: string | null;
  expiresAt?: Date | null;
  paymentLinkId?: string | null;
}

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

/** Absolute http(s) URL; `{CHECKOUT_SESSION_ID}` may stand anywhere in it. */
export function isAbsoluteHttpUrl(value: string): boolean {
  // `http:foo` parses as absolute but browsers follow it as a relative path: require the `//`.
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value.replaceAll('{CHECKOUT_SESSION_ID}', 'placeholder'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Applies every rule of design.md §5 that a new checkout session must meet and returns the session,
 * open and ready to pay. Throws a `TillpointError` naming the first parameter that breaks a rule.
 */
export function buildCheckoutSession(input: NewCheckoutSession, scope: Scope, now: Date): CheckoutSession {
  const rule = currencyRule(input.currency);
  if (!rule) {
    throw new TillpointError('currency_not_supported', `Currency '${input.currency}' is not supported`, {
      param: 'currency',
    });
  }
  const count = input.lineItems.length;
  if (count < LIMITS.lineItems.min || count > LIMITS.lineItems.max) {
    throw invalid('line_items', `line_items must have between 1 and ${LIMITS.lineItems.max} entries`);
  }
  const lineItems: LineItem[] = input.lineItems.map((item, i) => {
    const at = `line_items[${i}]`;
    const name = item.name.trim();
    if (name.length < LIMITS.name.min || name.length > LIMITS.name.max) {
      throw invalid(`${at}[name]`, `name must be 1 to ${LIMITS.name.max} characters`);
    }
    if (!Number.isSafeInteger(item.unitAmount) || item.unitAmount < 0) {
      throw invalid(`${at}[unit_amount]`, 'unit_amount must be a non-negative integer in minor units');
    }
    if (!Number.isInteger(item.quantity) || item.quantity < LIMITS.quantity.min || item.quantity > LIMITS.quantity.max) {
      throw invalid(`${at}[quantity]`, `quantity must be an integer from 1 to ${LIMITS.quantity.max}`);
    }
    return { name, unitAmount: item.unitAmount, quantity: item.quantity, amount: item.unitAmount * item.quantity };
  });
  const amountSubtotal = lineItems.reduce((sum, item) => sum + item.amount, 0);
  if (amountSubtotal < rule.minimum) {
    throw new TillpointError(
      'amount_too_small',
      `amount_total must be at least ${rule.minimum} (minor units of ${rule.code})`,
      { param: 'line_items' },
    );
  }
  if (amountSubtotal > MAX_AMOUNT) {
    throw new TillpointError('amount_too_large', `amount_total must be at most ${MAX_AMOUNT}`, {
      param: 'line_items',
    });
  }
  for (const param of ['successUrl', 'cancelUrl'] as const) {
    const value = input[param];
    if (value != null && !isAbsoluteHttpUrl(value)) {
      throw invalid(param === 'successUrl' ? 'success_url' : 'cancel_url', 'must be an absolute http(s) URL');
    }
  }
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  let expiresAt = new Date(now.getTime() + SESSION_LIFETIME.defaultMs);
  if (input.expiresAt) {
    const lifetime = input.expiresAt.getTime() - now.getTime();
    if (Number.isNaN(lifetime) || lifetime < SESSION_LIFETIME.minMs || lifetime > SESSION_LIFETIME.maxMs) {
      throw invalid('expires_at', 'expires_at must be between 30 minutes and 24 hours from now');
    }
    expiresAt = input.expiresAt;
  }
  const locale = sessionLocale(input.locale, scope.mode);
  const methods = input.paymentMethodTypes ?? ['card', 'google_pay'];
  if (methods.length === 0) throw invalid('payment_method_types', 'payment_method_types may not be empty');

  return {
    id: newId('cs'),
    accountId: scope.accountId,
    mode: scope.mode,
    status: 'open',
    currency: rule.code,
    lineItems,
    amountSubtotal,
    amountTotal: amountSubtotal,
    customerId: input.customerId ?? null,
    customerCreation: input.customerCreation ?? 'if_required',
    paymentMethodSave: input.paymentMethodSave ?? null,
    customerEmail: input.customerEmail ?? null,
    successUrl: input.successUrl ?? null,
    cancelUrl: input.cancelUrl ?? null,
    captureMethod: input.captureMethod ?? 'automatic',
    paymentMethodTypes: [...new Set(methods)],
    locale,
    metadata,
    clientReferenceId: input.clientReferenceId ?? null,
    paymentLinkId: input.paymentLinkId ?? null,
    expiresAt,
    completedAt: null,
    paymentId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Expires an open session whose time is up, unless a payment for it is under way. */
export async function expireIfOverdue(
  deps: Deps,
  tx: UnitOfWork,
  session: CheckoutSession,
): Promise<CheckoutSession> {
  const now = deps.clock.now();
  if (session.status !== 'open' || session.expiresAt > now) return session;
  if (await tx.payments.holdingSession(session.id)) return session;
  return transitionCheckoutSession(tx, session, 'expired', {}, now, deps.publicUrl);
}

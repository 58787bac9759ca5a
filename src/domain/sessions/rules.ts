import { currencyBoundMethod } from '../payments/bank-debits';
import { currencyRule, MAX_AMOUNT } from '../shared/currency';
import type { CaptureMethod, PaymentMethodType } from '../payments/entities';
import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import { checkMetadata, METADATA_LIMITS } from '../shared/metadata';
import { sessionLocale } from '../shared/locale';
import type { Scope } from '../shared/scope';
import { checkoutSessions, type LineItem, type CheckoutSession, type CheckoutSessionPurpose, type SubscriptionData } from './entities';
import { blankOf } from '../shared/resource-shape';
import type { CustomerCreation, SavePaymentMethodOption } from '../customers/entities';
import type { Deps, UnitOfWork } from '../deps';
import type { AppliedDiscount, AppliedTaxRate, ShippingRate } from '../pricing/entities';
import { matchDynamicTaxRate, pricingDiscount } from '../pricing/rules';
import type { DynamicTaxRate } from '../pricing/entities';
import { computeTotals } from '../pricing/totals';
import { transitionCheckoutSession } from '../payments/transition';
import { adjustableQuantityOf, customFieldsOf, type NewCustomField } from './shopper-options';

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
  /** `currency`, when given (Stripe's `price_data[currency]`), must be the session's. */
  lineItems: Array<{
    name: string;
    unitAmount: number;
    quantity: number;
    currency?: string;
    /** Ids of tax rates (`line_items[].tax_rates`), resolved into `taxRates` by the use case. */
    taxRateIds?: string[];
    taxRates?: AppliedTaxRate[];
    /** Ids of `line_items[].dynamic_tax_rates`, resolved into `dynamicTaxRates` by the use case. */
    dynamicTaxRateIds?: string[];
    dynamicTaxRates?: DynamicTaxRate[];
    adjustableQuantity?: { enabled: boolean; minimum?: number; maximum?: number };
    /** The price (`price_…`) the line's name and amount were taken from, if any. */
    priceId?: string | null;
  }>;
  successUrl?: string | null;
  cancelUrl?: string | null;
  captureMethod?: CaptureMethod;
  paymentMethodTypes?: PaymentMethodType[];
  customerEmail?: string | null;
  /** An existing customer of the scope (checked by the use case). */
  customerId?: string | null;
  customerCreation?: CustomerCreation;
  paymentMethodSave?: SavePaymentMethodOption | null;
  requireCvcRecollection?: boolean;
  /** `auto` (default), a supported locale, or a tag one serves (`es-MX` → `es`); see locale.ts. */
  locale?: string | null;
  metadata?: Record<string, string>;
  clientReferenceId?: string | null;
  expiresAt?: Date | null;
  paymentLinkId?: string | null;
  // Shop options (docs/pricing.md).
  allowPromotionCodes?: boolean;
  /** Resolved from `discounts[]` by the use case, checked with pricing/rules.ts' discountRefusal. */
  discount?: AppliedDiscount | null;
  /** Stripe's `shipping_options[].shipping_rate_data` of type `fixed_amount`, in the session's currency. */
  shippingOptions?: NewShippingOption[];
  /**
   * `setup` saves a card without charging: no line items, no amounts (docs/customers.md);
   * `subscription` starts a subscription to its one line's recurring price (docs/billing.md).
   */
  purpose?: CheckoutSessionPurpose;
  /** Subscription mode: a free trial of `trialPeriodDays` (nothing charged today), and the subscription's metadata. */
  subscriptionData?: {
    trialPeriodDays?: number | null;
    metadata?: Record<string, string>;
    /** Its line's price's renewal, set by the use case that looked the price up. */
    recurring?: { interval: SubscriptionData['interval']; intervalCount: number };
  } | null;
  // Addresses (ADR 0068).
  billingAddressCollection?: 'auto' | 'required';
  /** Upper-case ISO codes the data knows, checked by the use case (addresses/rules.ts). */
  shippingAllowedCountries?: string[] | null;
  /** Stripe's `custom_fields[]`, up to 3 (shopper-options.ts). */
  customFields?: NewCustomField[];
  /** `embedded`: mounted on the merchant's page with a client secret; needs `returnUrl` instead of `successUrl`. */
  uiMode?: 'hosted' | 'embedded';
  returnUrl?: string | null;
}

export interface NewShippingOption {
  displayName: string;
  amount: number;
  currency: string;
  deliveryEstimate?: ShippingRate['deliveryEstimate'];
}

const MAX_SHIPPING_OPTIONS = 5;

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

/** Absolute http(s) URL; `{CHECKOUT_SESSION_ID}` may stand anywhere in it. */
export function isAbsoluteHttpUrl(value: string): boolean {
  // `http:foo` parses as absolute but browsers follow it as a relative path: require the `//`.
  if (!/^https?:\/\//i.test(value)) return false;
  // The URL parser drops CR, LF and TAB; the URL would be stored and sent back with them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this check refuses.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return false;
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
  const setup = input.purpose === 'setup';
  if (setup) assertSetupInput(input);
  const subscription = input.purpose === 'subscription' ? subscriptionDataOf(input) : null;
  if (!subscription && input.subscriptionData) throw invalid('subscription_data', 'subscription_data is for subscription mode');
  const rule = currencyRule(input.currency);
  if (!rule) {
    throw new TillpointError('currency_not_supported', `Currency '${input.currency}' is not supported`, {
      param: 'currency',
    });
  }
  const count = input.lineItems.length;
  if (!setup && (count < LIMITS.lineItems.min || count > LIMITS.lineItems.max)) {
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
    if (item.currency !== undefined && item.currency.toUpperCase() !== rule.code) {
      throw invalid(`${at}[price_data][currency]`, `price_data[currency] must be the session's currency, ${rule.code.toLowerCase()}`);
    }
    const line: LineItem = { name, unitAmount: item.unitAmount, quantity: item.quantity, amount: item.unitAmount * item.quantity };
    if (item.priceId) line.priceId = item.priceId;
    if (item.taxRates?.length) {
      if (item.taxRates.length > 5) throw invalid(`${at}[tax_rates]`, 'A line item may have at most 5 tax rates');
      line.taxRates = item.taxRates;
    }
    if (item.dynamicTaxRates?.length) {
      if (item.dynamicTaxRates.length > 50) throw invalid(`${at}[dynamic_tax_rates]`, 'A line item may have at most 50 dynamic tax rates');
      line.dynamicTaxRates = item.dynamicTaxRates;
    }
    const adjustable = adjustableQuantityOf(item.adjustableQuantity, item.quantity, at);
    if (adjustable) line.adjustableQuantity = adjustable;
    return line;
  });
  const shippingOptions = (input.shippingOptions ?? []).map((option, i) => shippingRateOf(option, rule.code, `shipping_options[${i}][shipping_rate_data]`));
  if (shippingOptions.length > MAX_SHIPPING_OPTIONS) throw invalid('shipping_options', `At most ${MAX_SHIPPING_OPTIONS} shipping options`);
  if (input.allowPromotionCodes && input.discount) {
    throw invalid('discounts', 'Give either allow_promotion_codes or discounts, not both');
  }
  if (lineItems.reduce((sum, item) => sum + item.amount, 0) > MAX_AMOUNT) {
    throw new TillpointError('amount_too_large', `amount_total must be at most ${MAX_AMOUNT}`, { param: 'line_items' });
  }
  const discounts = input.discount ? [input.discount] : [];
  const shippingRateId = shippingOptions[0]?.id ?? null;
  const priced = priceCheckoutSession({
    currency: rule.code,
    lineItems,
    discounts,
    shippingOptions,
    shippingRateId,
    shippingAddressCollection: null,
    shippingDetails: null,
    billingAddress: null,
  });
  if (lineItems.some((item) => item.dynamicTaxRates?.length) && !input.shippingAllowedCountries?.length && input.billingAddressCollection !== 'required') {
    throw invalid('line_items', 'dynamic_tax_rates need an address: set shipping_address_collection or billing_address_collection: "required"');
  }
  // A trial charges nothing today: the page saves the card, and the subscription charges it when the trial ends.
  const trial = Boolean(subscription?.trialPeriodDays);
  if (!setup && !trial) assertPayableTotal(priced.amountTotal, rule.code, input.discount ? 'discounts' : 'line_items');
  const { amountSubtotal } = priced;
  for (const param of ['successUrl', 'cancelUrl'] as const) {
    const value = input[param];
    if (value != null && !isAbsoluteHttpUrl(value)) {
      throw invalid(param === 'successUrl' ? 'success_url' : 'cancel_url', 'must be an absolute http(s) URL');
    }
  }
  const embedded = input.uiMode === 'embedded';
  if (embedded) {
    if (input.successUrl != null) throw invalid('success_url', 'An embedded session takes return_url, not success_url');
    if (input.cancelUrl != null) throw invalid('cancel_url', 'An embedded session has no cancel_url: the shopper stays on your page');
    if (input.returnUrl == null)
      throw new TillpointError('parameter_missing', 'Missing required parameter: return_url (ui_mode embedded)', { param: 'return_url' });
    if (!isAbsoluteHttpUrl(input.returnUrl)) throw invalid('return_url', 'must be an absolute http(s) URL');
  } else if (input.returnUrl != null) {
    throw invalid('return_url', 'return_url is for ui_mode embedded; a hosted session takes success_url');
  }
  const customFields = customFieldsOf(input.customFields);
  if (setup && customFields.length > 0) throw invalid('custom_fields', 'custom_fields is not used in setup mode');
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
  // A setup session saves a card: the card form is its only method.
  const methods = input.paymentMethodTypes ?? (setup || subscription ? ['card'] : ['card', 'google_pay']);
  if (methods.length === 0) throw invalid('payment_method_types', 'payment_method_types may not be empty');
  for (const type of methods) {
    // A local payment method or a bank debit takes its own currencies only, and the bank pays at once.
    const bound = currencyBoundMethod(type);
    if (!bound) continue;
    const { name, currencies } = bound;
    if (!currencies.includes(rule.code.toUpperCase())) {
      throw invalid('payment_method_types', `${name} takes ${currencies.join(' or ')} payments only, not ${rule.code}`);
    }
    if (input.captureMethod === 'manual') throw invalid('capture_method', `${name} is paid at once: capture_method manual is not used with ${type}`);
  }

  const id = newId('cs');
  return {
    ...blankOf(checkoutSessions),
    id,
    accountId: scope.accountId,
    mode: scope.mode,
    status: 'open',
    currency: rule.code,
    lineItems,
    amountSubtotal,
    amountTotal: trial ? 0 : priced.amountTotal,
    customerId: input.customerId ?? null,
    // A subscription bills a customer's saved card: paying makes the customer and saves the card.
    customerCreation: subscription ? 'always' : (input.customerCreation ?? 'if_required'),
    paymentMethodSave: subscription ? 'on' : (input.paymentMethodSave ?? null),
    requireCvcRecollection: input.requireCvcRecollection ?? false,
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
    createdAt: now,
    updatedAt: now,
    totalDetails: priced.totalDetails,
    allowPromotionCodes: input.allowPromotionCodes ?? false,
    discounts,
    shippingOptions,
    shippingRateId,
    purpose: setup ? 'setup' : subscription ? 'subscription' : 'payment',
    subscriptionId: subscription ? newId('sub') : null,
    subscriptionData: subscription,
    billingAddressCollection: input.billingAddressCollection ?? 'auto',
    shippingAddressCollection: input.shippingAllowedCountries?.length ? { allowedCountries: input.shippingAllowedCountries } : null,
    shippingDetails: null,
    billingAddress: null,
    customFields,
    uiMode: embedded ? 'embedded' : 'hosted',
    returnUrl: embedded ? input.returnUrl! : null,
    clientSecret: embedded ? `${id}_secret_${newId('x', 24).slice(2)}` : null,
  };
}

/**
 * What a setup session refuses: anything about charging. It saves the card the shopper enters to
 * the session's customer (made of the shopper when there is none), so it has no line items, no
 * amounts, no capture or discount options, and offers only the card form.
 */
/** Longest free trial a subscription may start with. */
export const MAX_TRIAL_DAYS = 730;

/**
 * The subscription options of a subscription-mode session, checked: one line naming a price (the use
 * case has checked it recurs), card only, charged at once; a trial charges nothing today, so it takes
 * no discount, shipping or promotion code.
 */
function subscriptionDataOf(input: NewCheckoutSession): SubscriptionData {
  const recurring = input.subscriptionData?.recurring;
  if (input.lineItems.length !== 1 || !input.lineItems[0]!.priceId || !recurring) {
    throw invalid('line_items', 'A subscription session takes exactly one line item, naming a recurring price');
  }
  if (input.lineItems[0]!.adjustableQuantity?.enabled)
    throw invalid('line_items[0][adjustable_quantity]', 'adjustable_quantity is not used in subscription mode');
  if (input.captureMethod === 'manual')
    throw invalid('capture_method', 'A subscription charges at once: capture_method manual is not used in subscription mode');
  if (input.paymentMethodTypes?.some((type) => type !== 'card')) {
    throw invalid('payment_method_types', 'A subscription charges a saved card: payment_method_types may only be ["card"]');
  }
  if (input.paymentMethodSave || input.customerCreation) {
    throw invalid(input.paymentMethodSave ? 'payment_method_options' : 'customer_creation', 'A subscription session always saves the card to a customer');
  }
  const days = input.subscriptionData?.trialPeriodDays ?? null;
  if (days !== null && (!Number.isSafeInteger(days) || days < 1 || days > MAX_TRIAL_DAYS)) {
    throw invalid('subscription_data[trial_period_days]', `trial_period_days must be a whole number from 1 to ${MAX_TRIAL_DAYS}`);
  }
  if (days !== null) {
    const refused: Array<[boolean, string]> = [
      [Boolean(input.allowPromotionCodes), 'allow_promotion_codes'],
      [Boolean(input.discount), 'discounts'],
      [(input.shippingOptions ?? []).length > 0, 'shipping_options'],
    ];
    for (const [given, param] of refused) if (given) throw invalid(param, `${param} is not used with a trial: nothing is charged today`);
  }
  const metadata = input.subscriptionData?.metadata ?? {};
  checkMetadata(metadata);
  return { trialPeriodDays: days, metadata, interval: recurring.interval, intervalCount: recurring.intervalCount };
}

function assertSetupInput(input: NewCheckoutSession): void {
  const refused: Array<[boolean, string]> = [
    [input.lineItems.length > 0, 'line_items'],
    [input.captureMethod !== undefined, 'capture_method'],
    [input.allowPromotionCodes !== undefined, 'allow_promotion_codes'],
    [Boolean(input.discount), 'discounts'],
    [(input.shippingOptions ?? []).length > 0, 'shipping_options'],
    [Boolean(input.shippingAllowedCountries), 'shipping_address_collection'],
    [Boolean(input.paymentMethodSave) || input.requireCvcRecollection !== undefined, 'payment_method_options'],
  ];
  for (const [given, param] of refused) {
    if (given) throw invalid(param, `${param} is not used in setup mode: a setup session saves a card without charging`);
  }
  if (input.paymentMethodTypes?.some((type) => type !== 'card')) {
    throw invalid('payment_method_types', 'A setup session saves cards only: payment_method_types may only be ["card"]');
  }
}

function shippingRateOf(option: NewShippingOption, currency: string, at: string): ShippingRate {
  const displayName = option.displayName.trim();
  if (displayName.length < 1 || displayName.length > 100) throw invalid(`${at}[display_name]`, 'display_name must be 1 to 100 characters');
  if (option.currency.toUpperCase() !== currency) {
    throw invalid(`${at}[fixed_amount][currency]`, `fixed_amount[currency] must be the session's currency, ${currency.toLowerCase()}`);
  }
  if (!Number.isSafeInteger(option.amount) || option.amount < 0 || option.amount > MAX_AMOUNT) {
    throw invalid(`${at}[fixed_amount][amount]`, 'fixed_amount[amount] must be a non-negative integer in minor units');
  }
  const estimate = option.deliveryEstimate ?? null;
  for (const bound of ['minimum', 'maximum'] as const) {
    const value = estimate?.[bound];
    if (value && (!Number.isInteger(value.value) || value.value < 1 || value.value > 1000)) {
      throw invalid(`${at}[delivery_estimate][${bound}][value]`, 'value must be a whole number from 1 to 1000');
    }
  }
  return { id: newId('shr', 16), displayName, amount: option.amount, deliveryEstimate: estimate };
}

/**
 * A session's figures from what it stores: its items and their tax rates, its discount, its chosen
 * shipping,
 * priced by pricing/totals.ts, the one place totals are computed.
 */
type PricedSessionInput = Pick<
  CheckoutSession,
  'currency' | 'lineItems' | 'discounts' | 'shippingOptions' | 'shippingRateId' | 'shippingDetails' | 'billingAddress' | 'shippingAddressCollection'
>;

/** The session's totals, and the names of the tax rates they apply (dynamic ones matched to the address). */
function totalsOfSession(session: PricedSessionInput) {
  const shipping = session.shippingOptions.find((option) => option.id === session.shippingRateId);
  const taxAddress = taxAddressOf(session);
  const rates = new Map<string, { displayName: string; percentage: number; inclusive: boolean }>();
  const totals = computeTotals({
    currency: session.currency,
    // A line the shopper set to 0 (adjustable_quantity) is kept so it can come back, and priced as nothing.
    lines: session.lineItems
      .filter((item) => item.quantity > 0)
      .map((item) => {
        const dynamic = matchDynamicTaxRate(item.dynamicTaxRates, taxAddress);
        const taxRates = dynamic ? [...(item.taxRates ?? []), dynamic] : item.taxRates;
        for (const rate of taxRates ?? []) rates.set(rate.id, { displayName: rate.displayName, percentage: rate.percentage, inclusive: rate.inclusive });
        return { unitAmount: item.unitAmount, quantity: item.quantity, taxRates };
      }),
    discount: pricingDiscount(session.discounts[0]),
    shipping: shipping?.amount ?? 0,
  });
  return { totals, rates };
}

export function priceCheckoutSession(session: PricedSessionInput) {
  const { totals } = totalsOfSession(session);
  return { amountSubtotal: totals.amountSubtotal, amountTotal: totals.amountTotal, totalDetails: totals.totalDetails };
}

/**
 * The session's tax summed per rate, with the rate's name (Stripe's `total_details.breakdown.taxes`),
 * from the same totals as `priceCheckoutSession`: an inclusive tax is part of the prices, an
 * exclusive one is added to them. Rates that come to nothing are left out.
 */
export function sessionTaxBreakdown(session: PricedSessionInput): Array<{ amount: number; displayName: string; percentage: number; inclusive: boolean }> {
  const { totals, rates } = totalsOfSession(session);
  return totals.taxes
    .filter((tax) => tax.amount > 0)
    .map((tax) => {
      const rate = rates.get(tax.taxRate)!;
      return { amount: tax.amount, displayName: rate.displayName, percentage: rate.percentage, inclusive: tax.inclusive };
    });
}

/** The address `dynamic_tax_rates` are matched to: the shipping address, else the billing address. */
export function taxAddressOf(session: Pick<CheckoutSession, 'shippingDetails' | 'billingAddress' | 'shippingAddressCollection'>) {
  return session.shippingAddressCollection ? (session.shippingDetails?.address ?? null) : session.billingAddress;
}

/** A total the processor can charge: at least the currency's minimum, at most MAX_AMOUNT (design.md §5). */
export function assertPayableTotal(amountTotal: number, currency: string, param: string): void {
  const rule = currencyRule(currency)!;
  if (amountTotal < rule.minimum) {
    throw new TillpointError('amount_too_small', `amount_total must be at least ${rule.minimum} (minor units of ${rule.code})`, { param });
  }
  if (amountTotal > MAX_AMOUNT) {
    throw new TillpointError('amount_too_large', `amount_total must be at most ${MAX_AMOUNT}`, { param });
  }
}

/** An open session whose time is up: nobody may see it open (`expireIfOverdue`). */
const isOverdue = (session: CheckoutSession, now: Date) => session.status === 'open' && session.expiresAt <= now;

/** Expires an open session whose time is up, unless a payment for it is under way. */
export async function expireIfOverdue(deps: Deps, tx: UnitOfWork, session: CheckoutSession): Promise<CheckoutSession> {
  const now = deps.clock.now();
  if (!isOverdue(session, now)) return session;
  if (await tx.payments.holdingSession(session.id)) return session;
  return transitionCheckoutSession(tx, session, 'expired', {}, now, deps.publicUrl);
}

/**
 * A session read without a lock, as of now: as read, or, when its time is up, read again under its
 * row lock and expired (`expireIfOverdue`). Only an overdue session costs a transaction.
 */
export async function sessionAsOfNow(deps: Deps, session: CheckoutSession, scope: Scope | null): Promise<CheckoutSession> {
  if (!isOverdue(session, deps.clock.now())) return session;
  return deps.store.transaction(async (tx) => expireIfOverdue(deps, tx, (await tx.checkoutSessions.get(scope, session.id, { forUpdate: true })) ?? session));
}

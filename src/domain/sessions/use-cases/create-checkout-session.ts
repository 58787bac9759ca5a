import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { newAuditEntry } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { priceIsRecurring, type CheckoutSession, type SubscriptionData } from '../entities';
import { findDiscount, type DiscountReference } from '../../pricing/discount-lookup';
import { assertRedeemable } from '../../pricing/redemption';
import { appliedDiscount, appliedDynamicTaxRate, appliedTaxRate } from '../../pricing/rules';
import { allowedCountriesOf } from '../../addresses/rules';
import type { AppliedTaxRate, TaxRate } from '../../pricing/entities';
import type { UnitOfWork } from '../../deps';

type NewLine = NewCheckoutSession['lineItems'][number];

/** A line that names a price (`line_items[].price`): its product's name and the price's amount are looked up. */
export type PriceLine = Omit<NewLine, 'name' | 'unitAmount' | 'currency' | 'priceId'> & { pricedBy: string };

/** A new session whose lines may name prices instead of giving a name and an amount. */
export type CheckoutSessionRequest = Omit<NewCheckoutSession, 'lineItems'> & { lineItems: Array<NewLine | PriceLine> };

/** Opens a checkout session for a cart; the shopper pays it at its `url`. */
export async function createCheckoutSession(
  deps: Deps,
  /**
   * `actor` is the key or user it is audited against; null when a shopper opened a payment link.
   * `discount` is the coupon or promotion code of `discounts[]`, checked and applied here.
   */
  options: { scope: Scope; input: CheckoutSessionRequest; actor: Actor | null; discount?: DiscountReference | null },
): Promise<CheckoutSession> {
  let input: NewCheckoutSession;
  if (options.input.lineItems.some((line) => 'pricedBy' in line)) {
    const request = options.input;
    input = await deps.store.read((reader) => withPrices(reader, options.scope, request));
  } else {
    input = options.input as NewCheckoutSession;
  }
  if (input.purpose === 'setup' && !input.currency) {
    const account = await deps.store.read((reader) => reader.accounts.get(options.scope.accountId));
    input = { ...input, currency: account?.defaultCurrency ?? 'USD' };
  }
  if (input.customerId) {
    // A session for a known customer takes its email from the customer, as Stripe's does.
    if (input.customerEmail) {
      throw new TillpointError('parameter_invalid', 'Give either customer or customer_email, not both', { param: 'customer_email' });
    }
    if (input.customerCreation) {
      throw new TillpointError('parameter_invalid', 'customer_creation is for sessions without a customer', { param: 'customer_creation' });
    }
    const customer = await deps.store.read((reader) => reader.customers.get(options.scope, input.customerId!));
    if (!customer) throw new TillpointError('resource_missing', `No such customer: '${input.customerId}'`, { param: 'customer' });
    input = { ...input, customerEmail: customer.email };
  }
  if (input.shippingAllowedCountries) {
    input = { ...input, shippingAllowedCountries: allowedCountriesOf(input.shippingAllowedCountries, deps.addressFormats) };
  }
  const now = deps.clock.now();
  let session: CheckoutSession;
  const reference = options.discount;
  const namesTaxRates = input.lineItems.some((item) => item.taxRateIds?.length || item.dynamicTaxRateIds?.length);
  if (reference || namesTaxRates) {
    // Only a session with a discount or tax rates reads before it is written.
    session = await deps.store.read(async (reader) => {
      const lineItems = namesTaxRates ? await withTaxRates(reader, options.scope, input.lineItems) : input.lineItems;
      const target = reference ? await findDiscount(reader, options.scope, reference) : null;
      const priced = { ...input, lineItems, discount: target && appliedDiscount(target.coupon, target.promotionCode) };
      const built = buildCheckoutSession(priced, options.scope, now);
      if (target) await assertRedeemable(reader, target, built, input.customerEmail ?? null, now, 'discounts');
      return built;
    });
  } else {
    session = buildCheckoutSession(input, options.scope, now);
  }
  // The session and its audit line commit together, in one statement.
  const audit = options.actor
    ? newAuditEntry({
        accountId: options.scope.accountId,
        mode: options.scope.mode,
        actor: options.actor,
        action: 'checkout_session.create',
        target: session.id,
        at: session.createdAt,
      })
    : undefined;
  await deps.store.once((db) => db.checkoutSessions.insert(session, audit));
  return session;
}

/**
 * The lines that name a price, as their product's name and the price's amount (Stripe's
 * `line_items[].price`). A price of another account, an archived price or product, a price in
 * another currency than the session's, and a recurring price outside subscription mode are refused
 * by the line's `price`. A session given no currency takes its prices'.
 */
async function withPrices(reader: UnitOfWork, scope: Scope, request: CheckoutSessionRequest): Promise<NewCheckoutSession> {
  let currency = request.currency;
  let recurring: { interval: SubscriptionData['interval']; intervalCount: number } | undefined;
  const lineItems: NewCheckoutSession['lineItems'] = [];
  for (const [i, line] of request.lineItems.entries()) {
    if (!('pricedBy' in line)) {
      lineItems.push(line);
      continue;
    }
    const param = `line_items[${i}][price]`;
    const { pricedBy, ...rest } = line;
    const price = await reader.prices.get(scope, pricedBy);
    const product = price && (await reader.products.get(scope, price.productId));
    if (!price || !product) throw new TillpointError('resource_missing', `No such price: '${pricedBy}'`, { param });
    if (!price.active || !product.active) throw new TillpointError('parameter_invalid', `Price '${price.id}' or its product is archived`, { param });
    if (priceIsRecurring(price) && request.purpose !== 'subscription') {
      throw new TillpointError('parameter_invalid', 'You must be in subscription mode to use recurring prices', { param });
    }
    if (request.purpose === 'subscription') {
      if (!priceIsRecurring(price)) throw new TillpointError('parameter_invalid', 'A subscription session takes a recurring price', { param });
      recurring = { interval: price.recurringInterval!, intervalCount: price.recurringIntervalCount ?? 1 };
    }
    if (!currency) currency = price.currency;
    if (price.currency !== currency.toUpperCase()) {
      throw new TillpointError('parameter_invalid', `Price '${price.id}' is in ${price.currency.toLowerCase()}, not the session's ${currency.toLowerCase()}`, {
        param,
      });
    }
    lineItems.push({ ...rest, name: product.name, unitAmount: price.unitAmount, priceId: price.id });
  }
  return { ...request, currency, lineItems, ...(recurring ? { subscriptionData: { ...request.subscriptionData, recurring } } : {}) };
}

/** Each item's `tax_rates` ids as the rates' terms; an unknown or inactive rate is refused by name. */
async function withTaxRates(reader: UnitOfWork, scope: Scope, items: NewCheckoutSession['lineItems']): Promise<NewCheckoutSession['lineItems']> {
  const found = new Map<string, TaxRate | null>();
  const result: NewCheckoutSession['lineItems'] = [];
  for (const [i, item] of items.entries()) {
    const taxRates: AppliedTaxRate[] = [];
    for (const [r, id] of (item.taxRateIds ?? []).entries()) {
      if (!found.has(id)) found.set(id, await reader.taxRates.get(scope, id));
      const rate = found.get(id);
      const param = `line_items[${i}][tax_rates][${r}]`;
      if (!rate) throw new TillpointError('resource_missing', `No such tax rate: '${id}'`, { param });
      if (!rate.active) throw new TillpointError('parameter_invalid', `Tax rate '${id}' is not active`, { param });
      taxRates.push(appliedTaxRate(rate));
    }
    const dynamicTaxRates = [];
    for (const [r, id] of (item.dynamicTaxRateIds ?? []).entries()) {
      if (!found.has(id)) found.set(id, await reader.taxRates.get(scope, id));
      const rate = found.get(id);
      const param = `line_items[${i}][dynamic_tax_rates][${r}]`;
      if (!rate) throw new TillpointError('resource_missing', `No such tax rate: '${id}'`, { param });
      if (!rate.active) throw new TillpointError('parameter_invalid', `Tax rate '${id}' is not active`, { param });
      if (!rate.country)
        throw new TillpointError('parameter_invalid', `Tax rate '${id}' has no country: a dynamic tax rate is matched by its jurisdiction`, { param });
      dynamicTaxRates.push(appliedDynamicTaxRate({ ...rate, country: rate.country }));
    }
    result.push({ ...item, taxRates, ...(dynamicTaxRates.length ? { dynamicTaxRates } : {}) });
  }
  return result;
}

import { currencyRule, MAX_AMOUNT } from '../shared/currency';
import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import type { Scope } from '../shared/scope';
import {
  MAX_DURATION_IN_MONTHS,
  type AppliedDiscount,
  type AppliedTaxRate,
  type Coupon,
  type CouponDuration,
  type DynamicTaxRate,
  type PromotionCode,
  type Redemptions,
  type TaxRate,
} from './entities';
import type { Address } from '../addresses/entities';
import { scaledPercentage, type PricingDiscount } from './totals';

export interface NewCoupon {
  name?: string | null;
  percentOff?: number | null;
  amountOff?: number | null;
  currency?: string | null;
  duration?: CouponDuration;
  /** `repeating` only, and required there: 1 to 36. */
  durationInMonths?: number | null;
  maxRedemptions?: number | null;
  redeemBy?: Date | null;
  metadata?: Record<string, string>;
}

export interface NewPromotionCode {
  code?: string | null;
  coupon: string;
  active?: boolean;
  maxRedemptions?: number | null;
  expiresAt?: Date | null;
  restrictions?: { firstTimeTransaction?: boolean; minimumAmount?: number | null; minimumAmountCurrency?: string | null };
  metadata?: Record<string, string>;
}

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

function checkMetadata(metadata: Record<string, string>): void {
  const keys = Object.keys(metadata);
  if (keys.length > 50) throw invalid('metadata', 'metadata may have at most 50 keys');
  for (const key of keys) {
    if (key.length === 0 || key.length > 40) throw invalid(`metadata[${key}]`, 'metadata keys must be 1 to 40 characters');
    if (metadata[key]!.length > 500) throw invalid(`metadata[${key}]`, 'metadata values must be at most 500 characters');
  }
}

/**
 * A new coupon: exactly one of `percent_off` and `amount_off` (with its `currency`); `duration`
 * `once` (the default), `forever`, or `repeating` with its `duration_in_months`, 1 to 36.
 */
export function buildCoupon(input: NewCoupon, scope: Scope, now: Date): Coupon {
  const hasPercent = input.percentOff != null;
  const hasAmount = input.amountOff != null;
  if (hasPercent === hasAmount)
    throw new TillpointError('parameter_missing', 'Give exactly one of percent_off and amount_off', { param: hasPercent ? 'amount_off' : 'percent_off' });
  let currency: string | null = null;
  if (hasPercent) {
    const scaled = scaledPercentage(input.percentOff!, 2);
    if (scaled === null || scaled <= 0 || scaled > 10_000)
      throw invalid('percent_off', 'percent_off must be more than 0 and at most 100, with at most 2 decimals');
    if (input.currency != null) throw invalid('currency', 'currency goes with amount_off only');
  } else {
    if (!Number.isSafeInteger(input.amountOff) || input.amountOff! <= 0 || input.amountOff! > MAX_AMOUNT) {
      throw invalid('amount_off', `amount_off must be a positive integer in minor units, at most ${MAX_AMOUNT}`);
    }
    if (input.currency == null) throw new TillpointError('parameter_missing', 'amount_off needs its currency', { param: 'currency' });
    const rule = currencyRule(input.currency);
    if (!rule) throw new TillpointError('currency_not_supported', `Currency '${input.currency}' is not supported`, { param: 'currency' });
    currency = rule.code;
  }
  const duration = input.duration ?? 'once';
  const months = input.durationInMonths ?? null;
  if (duration === 'repeating') {
    if (months === null) throw new TillpointError('parameter_missing', 'A repeating coupon needs duration_in_months', { param: 'duration_in_months' });
    if (!Number.isSafeInteger(months) || months < 1 || months > MAX_DURATION_IN_MONTHS) {
      throw invalid('duration_in_months', `duration_in_months must be a whole number from 1 to ${MAX_DURATION_IN_MONTHS}`);
    }
  } else if (months !== null) {
    throw invalid('duration_in_months', 'duration_in_months goes with duration: "repeating" only');
  }
  const name = input.name?.trim() || null;
  if (name && name.length > 40) throw invalid('name', 'name must be at most 40 characters');
  if (input.maxRedemptions != null && (!Number.isSafeInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    throw invalid('max_redemptions', 'max_redemptions must be a positive integer');
  }
  if (input.redeemBy && input.redeemBy <= now) throw invalid('redeem_by', 'redeem_by must be in the future');
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  return {
    id: newId('coupon', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    name,
    percentOff: hasPercent ? input.percentOff! : null,
    amountOff: hasAmount ? input.amountOff! : null,
    currency,
    duration,
    durationInMonths: months,
    maxRedemptions: input.maxRedemptions ?? null,
    redeemBy: input.redeemBy ?? null,
    metadata,
    createdAt: now,
  };
}

const CODE_PATTERN = /^[A-Za-z0-9_-]{3,50}$/;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A code shoppers can read out and type: 8 characters without look-alikes (0/O, 1/I). */
function generatedCode(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/** A new promotion code for `coupon`; `code` is generated when not given. */
export function buildPromotionCode(input: NewPromotionCode, coupon: Coupon, scope: Scope, now: Date): PromotionCode {
  const code = input.code?.trim() || generatedCode();
  if (!CODE_PATTERN.test(code)) throw invalid('code', 'code must be 3 to 50 letters, digits, dashes or underscores');
  if (input.maxRedemptions != null && (!Number.isSafeInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    throw invalid('max_redemptions', 'max_redemptions must be a positive integer');
  }
  if (input.expiresAt && input.expiresAt <= now) throw invalid('expires_at', 'expires_at must be in the future');
  if (input.expiresAt && coupon.redeemBy && input.expiresAt > coupon.redeemBy) {
    throw invalid('expires_at', "expires_at may not be later than the coupon's redeem_by");
  }
  const restrictions = input.restrictions ?? {};
  let minimumAmountCurrency: string | null = null;
  if (restrictions.minimumAmount != null) {
    if (!Number.isSafeInteger(restrictions.minimumAmount) || restrictions.minimumAmount < 1) {
      throw invalid('restrictions[minimum_amount]', 'minimum_amount must be a positive integer in minor units');
    }
    if (restrictions.minimumAmountCurrency == null) {
      throw new TillpointError('parameter_missing', 'minimum_amount needs minimum_amount_currency', { param: 'restrictions[minimum_amount_currency]' });
    }
    const rule = currencyRule(restrictions.minimumAmountCurrency);
    if (!rule)
      throw new TillpointError('currency_not_supported', `Currency '${restrictions.minimumAmountCurrency}' is not supported`, {
        param: 'restrictions[minimum_amount_currency]',
      });
    minimumAmountCurrency = rule.code;
  } else if (restrictions.minimumAmountCurrency != null) {
    throw invalid('restrictions[minimum_amount_currency]', 'minimum_amount_currency goes with minimum_amount only');
  }
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  return {
    id: newId('promo', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    code,
    couponId: coupon.id,
    active: input.active ?? true,
    maxRedemptions: input.maxRedemptions ?? null,
    expiresAt: input.expiresAt ?? null,
    restrictions: {
      firstTimeTransaction: restrictions.firstTimeTransaction ?? false,
      minimumAmount: restrictions.minimumAmount ?? null,
      minimumAmountCurrency,
    },
    metadata,
    createdAt: now,
  };
}

/** Whether a coupon can still be redeemed at `now` (its `valid`, without counting redemptions). */
export function couponUnexpired(coupon: Coupon, now: Date): boolean {
  return coupon.redeemBy === null || coupon.redeemBy > now;
}

/**
 * Why a discount cannot apply to a cart of `currency` and `subtotal` at `now`, or null when it can.
 * `param` names where the shopper's or developer's input was: `promotion_code` or `discounts`.
 */
export function discountRefusal(
  target: { coupon: Coupon; promotionCode: PromotionCode | null },
  cart: { currency: string; amountSubtotal: number },
  now: Date,
  param: string,
): TillpointError | null {
  const { coupon, promotionCode } = target;
  if (promotionCode && (!promotionCode.active || (promotionCode.expiresAt && promotionCode.expiresAt <= now))) {
    return invalid(param, 'This promotion code is not active');
  }
  if (!couponUnexpired(coupon, now)) return invalid(param, 'This coupon can no longer be redeemed');
  if (coupon.currency && coupon.currency !== cart.currency.toUpperCase()) {
    return invalid(param, `This discount is in ${coupon.currency.toLowerCase()}, the session in ${cart.currency.toLowerCase()}`);
  }
  const minimum = promotionCode?.restrictions;
  if (minimum?.minimumAmount != null) {
    if (minimum.minimumAmountCurrency !== cart.currency.toUpperCase() || cart.amountSubtotal < minimum.minimumAmount) {
      return invalid(param, 'The order does not reach the minimum amount of this promotion code');
    }
  }
  return null;
}

/** The discount as a session stores it. */
export function appliedDiscount(coupon: Coupon, promotionCode: PromotionCode | null): AppliedDiscount {
  return {
    coupon: { id: coupon.id, name: coupon.name, percentOff: coupon.percentOff, amountOff: coupon.amountOff, currency: coupon.currency },
    promotionCode: promotionCode && { id: promotionCode.id, code: promotionCode.code },
  };
}

/** What the totals need of a stored discount. */
export function pricingDiscount(discount: AppliedDiscount | undefined): PricingDiscount | null {
  if (!discount) return null;
  return discount.coupon.percentOff != null ? { percentOff: discount.coupon.percentOff } : { amountOff: discount.coupon.amountOff ?? 0 };
}

/** A coupon or code with its redemption count and whether it can still be redeemed at `now`. */
export function withRedemptions<T extends Coupon | PromotionCode>(target: T, timesRedeemed: number, now: Date): T & Redemptions {
  const underLimit = target.maxRedemptions === null || timesRedeemed < target.maxRedemptions;
  const unexpired = 'code' in target ? target.active && (target.expiresAt === null || target.expiresAt > now) : couponUnexpired(target, now);
  return { ...target, timesRedeemed, valid: underLimit && unexpired };
}

export interface NewTaxRate {
  displayName: string;
  description?: string | null;
  percentage: number;
  inclusive: boolean;
  country?: string | null;
  state?: string | null;
  jurisdiction?: string | null;
  active?: boolean;
  metadata?: Record<string, string>;
}

/** A new tax rate: 0–100 %, up to 4 decimals; country an ISO 3166-1 alpha-2 code. */
export function buildTaxRate(input: NewTaxRate, scope: Scope, now: Date): TaxRate {
  const displayName = input.displayName.trim();
  if (displayName.length < 1 || displayName.length > 50) throw invalid('display_name', 'display_name must be 1 to 50 characters');
  const scaled = scaledPercentage(input.percentage, 4);
  if (scaled === null || scaled < 0 || scaled > 100 * 10_000) throw invalid('percentage', 'percentage must be 0 to 100, with at most 4 decimals');
  const country = input.country?.trim().toUpperCase() || null;
  if (country !== null && !/^[A-Z]{2}$/.test(country)) throw invalid('country', 'country must be a two-letter ISO 3166-1 code');
  const state = input.state?.trim().toUpperCase() || null;
  if (state !== null && !/^[A-Z0-9]{1,3}$/.test(state)) throw invalid('state', 'state must be an ISO 3166-2 subdivision code, such as CA');
  if (state !== null && country === null) throw invalid('state', 'state needs its country');
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  return {
    id: newId('txr', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    displayName,
    description: input.description?.trim() || null,
    percentage: input.percentage,
    inclusive: input.inclusive,
    country,
    state,
    jurisdiction: input.jurisdiction?.trim() || null,
    active: input.active ?? true,
    metadata,
    createdAt: now,
  };
}

/** The rate as a line keeps it. */
export function appliedTaxRate(rate: TaxRate): AppliedTaxRate {
  return { id: rate.id, displayName: rate.displayName, percentage: rate.percentage, inclusive: rate.inclusive };
}

/** A rate of `dynamic_tax_rates` as the line keeps it: with the jurisdiction it is matched by. */
export function appliedDynamicTaxRate(rate: TaxRate & { country: string }): DynamicTaxRate {
  return { ...appliedTaxRate(rate), country: rate.country, state: rate.state };
}

/**
 * The one rate of a line's `dynamic_tax_rates` for `address`: the rate of its country and state,
 * else the rate of its country with no state; none when no rate matches or there is no address yet.
 */
export function matchDynamicTaxRate(rates: readonly DynamicTaxRate[] | undefined, address: Pick<Address, 'country' | 'state'> | null): DynamicTaxRate | null {
  if (!rates?.length || !address) return null;
  const inCountry = rates.filter((rate) => rate.country === address.country);
  const state = address.state?.toUpperCase() ?? null;
  return inCountry.find((rate) => rate.state !== null && rate.state === state) ?? inCountry.find((rate) => rate.state === null) ?? null;
}

import { coupons, promotionCodes, type Coupon, type PromotionCode, type Redemptions, type TaxRate } from '../../domain/pricing/entities';
import { apiObjectOf } from '../../domain/shared/resource-shape';
import { resourceView } from './resource';

/** A coupon as Stripe shows one: its fields as its definition shows them (`coupons`), and its redemptions. */
export function couponView(coupon: Coupon & Redemptions) {
  return {
    ...apiObjectOf('coupon', coupons, coupon),
    times_redeemed: coupon.timesRedeemed,
    valid: coupon.valid,
  };
}

/**
 * A promotion code as Stripe shows one: its fields as its definition shows them (`promotionCodes`),
 * its coupon spelled out, its restrictions and its redemptions.
 */
export function promotionCodeView(promotionCode: PromotionCode & Redemptions, coupon: Coupon & Redemptions) {
  return {
    ...apiObjectOf('promotion_code', promotionCodes, promotionCode),
    coupon: couponView(coupon),
    restrictions: {
      first_time_transaction: promotionCode.restrictions.firstTimeTransaction,
      minimum_amount: promotionCode.restrictions.minimumAmount,
      minimum_amount_currency: promotionCode.restrictions.minimumAmountCurrency?.toLowerCase() ?? null,
    },
    times_redeemed: promotionCode.timesRedeemed,
  };
}

/** A tax rate as Stripe shows one. */
export function taxRateView(taxRate: TaxRate) {
  return resourceView('tax_rate', taxRate, {
    display_name: taxRate.displayName,
    description: taxRate.description,
    percentage: taxRate.percentage,
    inclusive: taxRate.inclusive,
    country: taxRate.country,
    state: taxRate.state,
    jurisdiction: taxRate.jurisdiction,
    active: taxRate.active,
    metadata: taxRate.metadata,
  });
}

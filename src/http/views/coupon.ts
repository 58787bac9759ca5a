import { coupons, promotionCodes, taxRates, type Coupon, type PromotionCode, type Redemptions, type TaxRate } from '../../domain/pricing/entities';
import { apiObjectOf } from '../../domain/shared/resource-shape';

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

/** A tax rate as Stripe shows one: its fields as its definition shows them (`taxRates`). */
export function taxRateView(taxRate: TaxRate) {
  return apiObjectOf('tax_rate', taxRates, taxRate);
}

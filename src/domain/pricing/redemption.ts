import { TillpointError } from '../shared/errors';
import type { UnitOfWork } from '../deps';
import type { CheckoutSession } from '../sessions/entities';
import type { Coupon, PromotionCode } from './entities';
import { findDiscount, redemptionsExhausted, type DiscountReference } from './discount-lookup';
import { discountRefusal } from './rules';

/** What redeems a discount: a checkout session, or a subscription (its first invoice's subtotal). */
type Redeemer = Pick<CheckoutSession, 'id' | 'accountId' | 'mode' | 'currency' | 'amountSubtotal'>;

/**
 * Refuses a discount the session (or subscription) cannot take: inactive or expired, another
 * currency, under the code's minimum, a limit reached by other sessions and subscriptions, or (once
 * the shopper's email is known) a first-time code for an email that has paid before. Exact only
 * under the coupon's and code's row locks (`reserveDiscount`, `redeemForSubscription`); elsewhere it
 * refuses early what would be refused at payment.
 */
export async function assertRedeemable(
  tx: UnitOfWork,
  target: { coupon: Coupon; promotionCode: PromotionCode | null },
  redeemer: Redeemer,
  email: string | null,
  now: Date,
  param: string,
): Promise<void> {
  const refused = discountRefusal(target, redeemer, now, param);
  if (refused) throw refused;
  const { coupon, promotionCode } = target;
  if (coupon.maxRedemptions !== null && (await tx.discountRedemptions.countHeld({ couponId: coupon.id }, redeemer.id)) >= coupon.maxRedemptions) {
    throw redemptionsExhausted(param);
  }
  if (
    promotionCode?.maxRedemptions != null &&
    (await tx.discountRedemptions.countHeld({ promotionCodeId: promotionCode.id }, redeemer.id)) >= promotionCode.maxRedemptions
  ) {
    throw redemptionsExhausted(param);
  }
  if (promotionCode?.restrictions.firstTimeTransaction && email !== null) {
    if (await tx.discountRedemptions.emailHasPaid({ accountId: redeemer.accountId, mode: redeemer.mode }, email)) {
      throw new TillpointError('parameter_invalid', 'This promotion code is for a first order only', { param });
    }
  }
}

/**
 * Holds the session's discount for the payment about to be made, in the transaction that records
 * the payment's intent: the coupon's and code's rows are locked first (code, then coupon, the one
 * order), so concurrent payers with the same discount queue here, and each one counts the others'
 * held redemptions afresh. A held redemption is released by its payment failing, and counted as
 * redeemed when its session completes.
 */
export async function reserveDiscount(tx: UnitOfWork, session: CheckoutSession, email: string, now: Date): Promise<void> {
  const applied = session.discounts[0];
  if (!applied) return;
  const scope = { accountId: session.accountId, mode: session.mode };
  const promotionCode = applied.promotionCode ? await tx.promotionCodes.get(scope, applied.promotionCode.id, { forUpdate: true }) : null;
  const coupon = await tx.coupons.get(scope, applied.coupon.id, { forUpdate: true });
  if (!coupon || (applied.promotionCode && !promotionCode)) {
    throw new TillpointError('parameter_invalid', 'This discount no longer exists', { param: 'promotion_code' });
  }
  await assertRedeemable(tx, { coupon, promotionCode }, session, email, now, 'promotion_code');
  await tx.discountRedemptions.record({
    checkoutSessionId: session.id,
    accountId: session.accountId,
    mode: session.mode,
    couponId: coupon.id,
    promotionCodeId: promotionCode?.id ?? null,
    at: now,
  });
}

/**
 * Applies a coupon or promotion code to a subscription through the API (`POST /v1/subscriptions`
 * `{coupon | promotion_code}`), as checkout would: the code's and coupon's rows locked (code, then
 * coupon, the one order), refused when checkout would refuse it (`assertRedeemable`, against the
 * subscription's first invoice's subtotal and the customer's email), and recorded as redeemed by the
 * subscription in the caller's transaction. `param` names the parameter a refusal points at.
 */
export async function redeemForSubscription(
  tx: UnitOfWork,
  options: {
    reference: DiscountReference;
    subscription: Redeemer;
    email: string | null;
    now: Date;
    param: string;
  },
): Promise<{ coupon: Coupon; promotionCode: PromotionCode | null }> {
  const { subscription, param } = options;
  const scope = { accountId: subscription.accountId, mode: subscription.mode };
  const target = await findDiscount(tx, scope, options.reference, { forUpdate: true, param });
  await assertRedeemable(tx, target, subscription, options.email, options.now, param);
  await tx.discountRedemptions.recordForSubscription({
    subscriptionId: subscription.id,
    accountId: subscription.accountId,
    mode: subscription.mode,
    couponId: target.coupon.id,
    promotionCodeId: target.promotionCode?.id ?? null,
    at: options.now,
  });
  return target;
}

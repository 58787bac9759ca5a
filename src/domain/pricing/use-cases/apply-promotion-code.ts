import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { CheckoutSession } from '../../sessions/entities';
import { assertPayableTotal, priceCheckoutSession } from '../../sessions/rules';
import { refusalToPay } from '../../payments/rules';
import { assertRedeemable } from '../redemption';
import { appliedDiscount } from '../rules';

/**
 * The shopper types a promotion code on the page (or removes it with `code: null`): the server
 * finds it, checks it applies, and prices the session again. A session with a payment under way
 * keeps its total: the processor was asked for that amount.
 */
export async function applyPromotionCode(deps: Deps, options: { sessionId: string; code: string | null }): Promise<CheckoutSession> {
  const now = deps.clock.now();
  const param = 'promotion_code';
  return deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(null, options.sessionId, { forUpdate: true });
    if (!session) throw resourceMissing('checkout session', options.sessionId);
    const refused = refusalToPay(session, session.status === 'open' && session.expiresAt <= now);
    if (refused) throw refused;
    if (!session.allowPromotionCodes) throw new TillpointError('parameter_invalid', 'This checkout does not take promotion codes', { param });
    if (await tx.payments.holdingSession(session.id)) {
      throw new TillpointError('idempotency_key_in_use', 'A payment for this checkout session is under way; wait for its result');
    }
    let discounts: CheckoutSession['discounts'] = [];
    if (options.code !== null) {
      const scope = { accountId: session.accountId, mode: session.mode };
      const promotionCode = await tx.promotionCodes.findActiveByCode(scope, options.code.trim());
      const coupon = promotionCode && (await tx.coupons.get(scope, promotionCode.couponId));
      if (!promotionCode || !coupon) throw new TillpointError('parameter_invalid', 'This code is not valid', { param });
      await assertRedeemable(tx, { coupon, promotionCode }, session, null, now, param);
      discounts = [appliedDiscount(coupon, promotionCode)];
    }
    const priced = priceCheckoutSession({ ...session, discounts });
    assertPayableTotal(priced.amountTotal, session.currency, param);
    const next: CheckoutSession = { ...session, ...priced, discounts, updatedAt: now };
    if (!(await tx.checkoutSessions.update(next, 'open'))) throw refusalToPay({ ...session, status: 'complete' })!;
    if (discounts.length === 0) await tx.discountRedemptions.forget(session.id);
    return next;
  });
}

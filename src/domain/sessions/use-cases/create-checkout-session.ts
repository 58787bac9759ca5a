import { buildCheckoutSession, type NewCheckoutSession } from '../rules';
import { newAuditEntry } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { CheckoutSession } from '../entities';
import { findDiscount, type DiscountReference } from '../../pricing/discount-lookup';
import { assertRedeemable } from '../../pricing/redemption';
import { appliedDiscount } from '../../pricing/rules';

/** Opens a checkout session for a cart; the shopper pays it at its `url`. */
export async function createCheckoutSession(
  deps: Deps,
  /**
   * `actor` is the key or user it is audited against; null when a shopper opened a payment link.
   * `discount` is the coupon or promotion code of `discounts[]`, checked and applied here.
   */
  options: { scope: Scope; input: NewCheckoutSession; actor: Actor | null; discount?: DiscountReference | null },
): Promise<CheckoutSession> {
  const now = deps.clock.now();
  let session: CheckoutSession;
  if (options.discount) {
    const reference = options.discount;
    session = await deps.store.read(async (reader) => {
      const target = await findDiscount(reader, options.scope, reference);
      const built = buildCheckoutSession({ ...options.input, discount: appliedDiscount(target.coupon, target.promotionCode) }, options.scope, now);
      await assertRedeemable(reader, target, built, options.input.customerEmail ?? null, now, 'discounts');
      return built;
    });
  } else {
    session = buildCheckoutSession(options.input, options.scope, now);
  }
  // The session and its audit line commit together, in one statement.
  const audit = options.actor
    ? newAuditEntry({ accountId: options.scope.accountId, mode: options.scope.mode, actor: options.actor, action: 'checkout_session.create', target: session.id, at: session.createdAt })
    : undefined;
  await deps.store.once((db) => db.checkoutSessions.insert(session, audit));
  return session;
}

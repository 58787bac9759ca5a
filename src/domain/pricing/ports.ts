import type { PageRequest } from '../shared/pagination';
import type { Scope } from '../shared/scope';
import type { Coupon, PromotionCode, TaxRate } from './entities';

export interface CouponRepository {
  insert(coupon: Coupon): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Coupon | null>;
  list(scope: Scope, page: PageRequest): Promise<Coupon[]>;
  /** Sessions complete with the coupon, and subscriptions it was applied to. */
  timesRedeemed(couponIds: readonly string[]): Promise<Map<string, number>>;
}

export interface PromotionCodeRepository {
  /** False when the scope already has an active code that reads the same, whatever the case. */
  insert(code: PromotionCode): Promise<boolean>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<PromotionCode | null>;
  /** The active code that reads `code`, whatever the case. */
  findActiveByCode(scope: Scope, code: string): Promise<PromotionCode | null>;
  list(scope: Scope, page: PageRequest & { code?: string }): Promise<PromotionCode[]>;
  timesRedeemed(promotionCodeIds: readonly string[]): Promise<Map<string, number>>;
}

/** Which session or subscription took which discount: the ledger `max_redemptions` is checked against. */
/** A discount redeemed: by whom (the account and mode), which coupon and code, when. */
export interface Redemption {
  accountId: string;
  mode: Scope['mode'];
  couponId: string;
  promotionCodeId: string | null;
  at: Date;
}

export interface DiscountRedemptionRepository {
  /**
   * Redemptions that count against a limit: those whose session is complete or holds a payment
   * under way, and those of subscriptions; but the redemptions of `exceptRedeemerId` (a session or
   * a subscription). Read after the coupon's (and code's) row lock, so concurrent payers queue.
   */
  countHeld(filter: { couponId: string } | { promotionCodeId: string }, exceptRedeemerId: string): Promise<number>;
  /** Records the session's redemption: one per session, the latest discount it holds. */
  record(redemption: Redemption & { checkoutSessionId: string }): Promise<void>;
  /** Records a discount applied to a subscription through the API: redeemed at once, and once per subscription, coupon and code. */
  recordForSubscription(redemption: Redemption & { subscriptionId: string }): Promise<void>;
  /** Drops the session's redemption (its discount was removed before it was paid). */
  forget(checkoutSessionId: string): Promise<void>;
  /** Whether `email` has a successful payment on the scope (the first-time-transaction restriction). */
  emailHasPaid(scope: Scope, email: string): Promise<boolean>;
}

export interface TaxRateRepository {
  insert(taxRate: TaxRate): Promise<void>;
  get(scope: Scope, id: string): Promise<TaxRate | null>;
  list(scope: Scope, page: PageRequest): Promise<TaxRate[]>;
}

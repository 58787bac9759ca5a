import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Coupon } from '../entities';
import { withRedemptions } from '../rules';
import type { PromotionCodeWithCoupon } from './get-promotion-code';

/** One page of the scope's promotion codes, newest first; `code` finds one by its text, any case. */
export async function listPromotionCodes(deps: Deps, options: { scope: Scope; page: PageRequest; code?: string }): Promise<Page<PromotionCodeWithCoupon>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      const codes = await reader.promotionCodes.list(options.scope, { ...page, code: options.code });
      const couponIds = [...new Set(codes.map((code) => code.couponId))];
      const codeCounts = await reader.promotionCodes.timesRedeemed(codes.map((code) => code.id));
      const couponCounts = await reader.coupons.timesRedeemed(couponIds);
      const byId = new Map<string, Coupon>();
      for (const id of couponIds) {
        const coupon = await reader.coupons.get(options.scope, id);
        if (coupon) byId.set(id, coupon);
      }
      const now = deps.clock.now();
      return codes.map((code) => ({
        promotionCode: withRedemptions(code, codeCounts.get(code.id) ?? 0, now),
        coupon: withRedemptions(byId.get(code.couponId)!, couponCounts.get(code.couponId) ?? 0, now),
      }));
    }),
  );
}

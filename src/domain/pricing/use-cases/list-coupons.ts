import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Coupon, Redemptions } from '../entities';
import { withRedemptions } from '../rules';

/** One page of the scope's coupons, newest first. */
export async function listCoupons(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<Coupon & Redemptions>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      const coupons = await reader.coupons.list(options.scope, page);
      const counts = await reader.coupons.timesRedeemed(coupons.map((coupon) => coupon.id));
      const now = deps.clock.now();
      return coupons.map((coupon) => withRedemptions(coupon, counts.get(coupon.id) ?? 0, now));
    }),
  );
}

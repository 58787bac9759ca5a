import type { Deps } from '../../deps';
import type { PageFingerprint } from '../entities';

/**
 * The first time an account's checkout page is served, the page served is its baseline (trust on
 * first use, as the first check does), so a new account starts clean instead of reading "changed
 * since the approved baseline" until the next check. An account that has a baseline keeps it: only
 * an owner or admin replaces one. Returns whether this call recorded it.
 */
export async function recordFirstCheckoutPageBaseline(
  deps: Deps,
  options: { accountId: string; fingerprint: PageFingerprint; digest: string },
): Promise<boolean> {
  return deps.store.transaction((tx) =>
    tx.checkoutPage.saveFirstBaseline({
      accountId: options.accountId,
      digest: options.digest,
      fingerprint: options.fingerprint,
      approvedBy: null,
      approvedAt: deps.clock.now(),
    }),
  );
}

import { compareFingerprints } from '../rules';
import { checkoutPageChangeSnapshot } from '../../shared/event-payloads';
import { newEvent, type Mode } from '../../shared/events';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { PageFingerprint, CheckoutPageChange } from '../entities';

const BATCH = 100;
const modes: Mode[] = ['test', 'live'];

/**
 * PCI DSS 11.6.1: compares the page served now with every account's approved baseline. An account
 * without one takes this page as its baseline (trust on first use: the first check after install or
 * sign-up). A difference opens one change per account and page version and writes a
 * `checkout_page.changed` event in both modes (the page is the same for test and live), which the
 * outbox turns into webhook deliveries; the same difference is not reported again on the next check.
 * A page that returns to its baseline closes the open change as `reverted`.
 *
 * Returns the changes opened now, for the alerts outside the database (metrics, error reporting).
 */
export async function detectCheckoutPageChanges(deps: Deps, options: { fingerprint: PageFingerprint; digest: string }): Promise<CheckoutPageChange[]> {
  const { fingerprint, digest } = options;
  const opened: CheckoutPageChange[] = [];
  const done = new Set<string>();
  for (;;) {
    const accounts = (await deps.store.transaction((tx) => tx.checkoutPage.accountsToCompare(digest, BATCH))).filter((id) => !done.has(id));
    if (!accounts.length) break;
    for (const accountId of accounts) {
      done.add(accountId);
      const change = await deps.store.transaction(async (tx) => {
        const at = deps.clock.now();
        const baseline = await tx.checkoutPage.baseline(accountId, { forUpdate: true });
        if (!baseline) {
          await tx.checkoutPage.saveBaseline({ accountId, digest, fingerprint, approvedBy: null, approvedAt: at });
          return null;
        }
        if (baseline.digest === digest) {
          await tx.checkoutPage.resolveOpenChanges(accountId, at, 'reverted');
          return null;
        }
        const open = await tx.checkoutPage.openChange(accountId);
        if (open?.digest === digest) return null;
        // A newer version replaces an older unapproved one: one open change, the latest.
        if (open) await tx.checkoutPage.resolveOpenChanges(accountId, at, 'superseded');
        const change: CheckoutPageChange = {
          id: newId('cpc'),
          accountId,
          baselineDigest: baseline.digest,
          digest,
          differences: compareFingerprints(baseline.fingerprint, fingerprint),
          detectedAt: at,
          resolvedAt: null,
          resolution: null,
        };
        await tx.checkoutPage.insertChange(change);
        const data = checkoutPageChangeSnapshot(change);
        for (const mode of modes) {
          await tx.events.insert(newEvent({ id: change.id, accountId, mode }, 'checkout_page.changed', data, at));
        }
        return change;
      });
      if (change) opened.push(change);
    }
  }
  return opened;
}

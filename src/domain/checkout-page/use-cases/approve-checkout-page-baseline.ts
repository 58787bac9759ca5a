import { recordAudit } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { PageFingerprint, CheckoutPageBaseline } from '../entities';

/**
 * An owner or admin accepts the page served now as the account's baseline (after an upgrade they
 * reviewed). `reviewedDigest` is the digest they were shown: if the page changed meanwhile, nothing
 * is approved. Closes the open change and writes the audit log line, in one transaction.
 */
export async function approveCheckoutPageBaseline(
  deps: Deps,
  options: { accountId: string; actor: Actor; fingerprint: PageFingerprint; digest: string; reviewedDigest: string },
): Promise<CheckoutPageBaseline> {
  if (options.reviewedDigest !== options.digest) {
    throw new TillpointError('parameter_invalid', 'The checkout page changed since this version was shown: review the current version and approve that one', {
      param: 'digest',
    });
  }
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    await tx.checkoutPage.baseline(options.accountId, { forUpdate: true });
    const baseline: CheckoutPageBaseline = {
      accountId: options.accountId,
      digest: options.digest,
      fingerprint: options.fingerprint,
      approvedBy: { id: options.actor.id, label: options.actor.label },
      approvedAt: at,
    };
    await tx.checkoutPage.saveBaseline(baseline);
    await tx.checkoutPage.resolveOpenChanges(options.accountId, at, 'approved');
    await recordAudit(tx, {
      accountId: options.accountId,
      mode: null,
      actor: options.actor,
      action: 'checkout_page.baseline_approve',
      target: options.digest,
      at,
    });
    return baseline;
  });
}

import { buildCheckoutSession } from '../checkout-session-rules';
import type { PaymentLink } from '../entities';
import { newId } from '../ids';
import type { Deps, Scope } from '../ports';

/** Creates a reusable link that opens a fresh session for the same items each time. */
export async function createPaymentLink(
  deps: Deps,
  options: { scope: Scope; currency: string; lineItems: PaymentLink['lineItems'] },
): Promise<PaymentLink> {
  const now = deps.clock.now();
  // A link must make valid sessions, so it meets the same rules a session does.
  const sample = buildCheckoutSession({ currency: options.currency, lineItems: options.lineItems }, options.scope, now);
  const link: PaymentLink = {
    id: newId('plink', 16),
    accountId: options.scope.accountId,
    mode: options.scope.mode,
    slug: newId('', 12).slice(1).toLowerCase(),
    currency: sample.currency,
    lineItems: sample.lineItems.map(({ name, unitAmount, quantity }) => ({ name, unitAmount, quantity })),
    active: true,
    createdAt: now,
  };
  await deps.store.transaction((tx) => tx.paymentLinks.insert(link));
  return link;
}

import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import { recordProcessorDispute } from './record-processor-dispute';

/** How far back a catch-up search looks: longer than a dispute stays open at the card networks. */
export const DISPUTE_CATCH_UP_WINDOW_MS = 180 * 24 * 60 * 60 * 1000;

/**
 * Asks the processor for every dispute received lately in each scope it serves and records what it
 * says: a notification missed while the server was down (or never sent, as with the test
 * processor, whose disputes arrive this way) is caught up. Recording is idempotent, so finding
 * what is already known changes nothing. One scope failing does not stop the others.
 */
export async function catchUpDisputes(
  deps: Deps,
  options: { processor: 'test' | 'braintree'; onError?: (scope: Scope, error: unknown) => void },
): Promise<{ created: number; updated: number }> {
  const counts = { created: 0, updated: 0 };
  const receivedSince = new Date(deps.clock.now().getTime() - DISPUTE_CATCH_UP_WINDOW_MS);
  for (const scope of (await deps.processors.disputeScopes?.(options.processor)) ?? []) {
    try {
      const processor = await deps.processors.forScope(scope);
      if (processor.name !== options.processor) continue;
      for (const report of await processor.searchDisputes({ scope, receivedSince })) {
        const recorded = await recordProcessorDispute(deps, { scope, processor: processor.name, report });
        if (recorded.outcome === 'created') counts.created++;
        if (recorded.outcome === 'updated') counts.updated++;
      }
    } catch (error) {
      options.onError?.(scope, error);
    }
  }
  return counts;
}

import { resourceMissing } from '../../shared/errors';
import { assignVariant } from '../experiment-assignment';
import type { Deps } from '../../deps';

/**
 * The checkout page showed a session the variant of an experiment. The server assigns the variant
 * itself (the page cannot claim another) and records it once per session and experiment, so the
 * page may call again after a reload.
 */
export async function recordExposure(
  deps: Deps,
  options: { sessionId: string; key: string },
): Promise<{ experimentId: string; variant: string; recorded: boolean } | null> {
  return deps.store.transaction(async (tx) => {
    const session = await tx.checkoutSessions.get(null, options.sessionId);
    if (!session) throw resourceMissing('checkout session', options.sessionId);
    const experiment = (await tx.experiments.running(session)).find((x) => x.key === options.key);
    // Stopped meanwhile, or never running: nothing to record, and nothing wrong with the page.
    if (!experiment || session.status !== 'open') return null;
    const variant = assignVariant(experiment.id, session.id, experiment.variants);
    const recorded = await tx.exposures.insert({
      experimentId: experiment.id,
      checkoutSessionId: session.id,
      variant,
      exposedAt: deps.clock.now(),
      convertedAt: null,
    });
    return { experimentId: experiment.id, variant, recorded };
  });
}

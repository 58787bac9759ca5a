import { resourceMissing } from '../../shared/errors';
import { experimentResults, type VariantResult, type Verdict } from '../experiment-statistics';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Experiment } from '../entities';

/** Exposures and conversions per variant, their intervals and the verdict. */
export async function getExperimentResults(
  deps: Deps,
  options: { scope: Scope; id: string },
): Promise<{ experiment: Experiment; variants: VariantResult[]; verdict: Verdict }> {
  const read = await deps.store.read(async (reader) => {
    const experiment = await reader.experiments.get(options.scope, options.id);
    return experiment && { experiment, tally: await reader.exposures.tally(experiment.id) };
  });
  if (!read) throw resourceMissing('experiment', options.id);
  const { experiment, tally } = read;
  // Every variant appears, in the experiment's order, even before its first exposure.
  const counts = experiment.variants.map((v) => tally.find((t) => t.variant === v.key) ?? { variant: v.key, exposed: 0, conversions: 0 });
  return { experiment, ...experimentResults(counts, experiment.control, experiment.plannedSampleSize) };
}

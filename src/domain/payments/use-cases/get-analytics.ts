import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Experiment } from '../../flags/entities';
import { experimentResults, type VariantResult, type Verdict } from '../../flags/experiment-statistics';
import type { CheckoutFunnel, PaymentBreakdown } from '../../team/ports';

export interface Analytics extends PaymentBreakdown {
  from: Date;
  before: Date;
  funnel: CheckoutFunnel;
  /** Every experiment with exposures in the period, with its variants' conversion and intervals over that period. */
  experiments: Array<{ experiment: Experiment; variants: VariantResult[]; verdict: Verdict }>;
}

/** How long a period Analytics reads at once (a year and a day, like the Overview). */
export const ANALYTICS_MAX_DAYS = 366;

/**
 * The Analytics view over [from, before): the checkout funnel of the sessions opened then; the
 * payments of the period by method, by decline reason and by 3-D Secure outcome; and each
 * experiment's conversion among the sessions it exposed then, with the same intervals and verdict
 * as its own results page.
 */
export async function getAnalytics(deps: Deps, options: { scope: Scope; from: Date; before: Date }): Promise<Analytics> {
  const { scope, from, before } = options;
  const read = await deps.store.readReplica(async (reader) => ({
    funnel: await reader.dashboardSearch.funnel(scope, from, before),
    breakdown: await reader.dashboardSearch.paymentBreakdown(scope, from, before),
    exposures: await reader.dashboardSearch.exposureCounts(scope, from, before),
    experiments: await reader.experiments.list(scope, { limit: 100 }),
  }));
  const experiments = read.experiments
    .filter((experiment) => read.exposures.some((e) => e.experimentId === experiment.id))
    .map((experiment) => {
      // Every variant, in the experiment's order, even one nobody saw in the period.
      const counts = experiment.variants.map(
        (v) => read.exposures.find((e) => e.experimentId === experiment.id && e.variant === v.key) ?? { variant: v.key, exposed: 0, conversions: 0 },
      );
      return { experiment, ...experimentResults(counts, experiment.control, experiment.plannedSampleSize) };
    });
  return { from, before, funnel: read.funnel, ...read.breakdown, experiments };
}

import type { VariantResult, Verdict } from '../../domain/flags/experiment-statistics';
import { resourceView, unixTime } from './resource';
import type { Experiment } from '../../domain/flags/entities';

export function experimentView(x: Experiment) {
  return resourceView('experiment', x, {
    key: x.key,
    description: x.description,
    status: x.status,
    variants: x.variants.map((v) => ({ key: v.key, weight: v.weight })),
    control: x.control,
    planned_sample_size: x.plannedSampleSize,
    baseline_conversion_rate: x.baselineConversionRate,
    minimum_detectable_effect: x.minimumDetectableEffect,
    started: unixTime(x.startedAt),
    stopped: unixTime(x.stoppedAt),
  });
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export function experimentResultsView(x: Experiment, results: { variants: VariantResult[]; verdict: Verdict }) {
  return {
    object: 'experiment_results' as const,
    experiment: x.id,
    key: x.key,
    status: x.status,
    control: x.control,
    planned_sample_size: x.plannedSampleSize,
    confidence_level: 0.95,
    variants: results.variants.map((v) => ({
      variant: v.variant,
      exposed: v.exposed,
      conversions: v.conversions,
      conversion_rate: round(v.conversionRate),
      conversion_rate_interval: { lower: round(v.conversionRateInterval.lower), upper: round(v.conversionRateInterval.upper) },
      difference_to_control: v.differenceToControl && {
        difference: round(v.differenceToControl.difference),
        lower: round(v.differenceToControl.lower),
        upper: round(v.differenceToControl.upper),
      },
    })),
    verdict: results.verdict,
  };
}

import type { ExperimentVariant } from './entities';
import { TillpointError } from '../shared/errors';
import { requiredSampleSize } from './experiment-statistics';
import { experimentSurfaces, type ExperimentSurface } from './flag-evaluation';

/** The parts of an experiment fixed before it starts: what varies, how much, and how long it must run. */
export interface ExperimentPlanInput {
  variants?: ExperimentVariant[];
  control?: string;
  plannedSampleSize?: number;
  baselineConversionRate?: number;
  minimumDetectableEffect?: number;
}

/** Checks variants against the surface and settles the sample size; shared by create and update. */
export function checkExperimentPlan(
  key: ExperimentSurface,
  input: Required<Pick<ExperimentPlanInput, 'variants'>> & ExperimentPlanInput,
): {
  variants: ExperimentVariant[];
  control: string;
  plannedSampleSize: number;
  baselineConversionRate: number | null;
  minimumDetectableEffect: number | null;
} {
  const allowed = experimentSurfaces[key].variants as readonly string[];
  const { variants } = input;
  if (variants.length < 2) throw new TillpointError('parameter_invalid', 'An experiment needs at least two variants', { param: 'variants' });
  const seen = new Set<string>();
  variants.forEach((v, i) => {
    if (!allowed.includes(v.key)) {
      throw new TillpointError('parameter_invalid', `${key} variants are: ${allowed.join(', ')}`, { param: `variants[${i}][key]` });
    }
    if (seen.has(v.key)) throw new TillpointError('parameter_invalid', `Variant ${v.key} is listed twice`, { param: `variants[${i}][key]` });
    seen.add(v.key);
  });
  if (!variants.some((v) => v.weight > 0)) {
    throw new TillpointError('parameter_invalid', 'At least one variant needs a positive weight', { param: 'variants' });
  }
  const control = input.control ?? variants[0]!.key;
  if (!seen.has(control)) throw new TillpointError('parameter_invalid', 'The control must be one of the variants', { param: 'control' });

  const { baselineConversionRate: baseline, minimumDetectableEffect: effect } = input;
  if (input.plannedSampleSize !== undefined) {
    return { variants, control, plannedSampleSize: input.plannedSampleSize, baselineConversionRate: baseline ?? null, minimumDetectableEffect: effect ?? null };
  }
  if (baseline === undefined || effect === undefined) {
    throw new TillpointError('parameter_missing', 'Give planned_sample_size, or baseline_conversion_rate and minimum_detectable_effect to compute it', {
      param: baseline === undefined ? 'planned_sample_size' : 'minimum_detectable_effect',
    });
  }
  if (!(baseline + effect > 0 && baseline + effect < 1)) {
    throw new TillpointError('parameter_invalid', 'baseline_conversion_rate + minimum_detectable_effect must lie between 0 and 1', {
      param: 'minimum_detectable_effect',
    });
  }
  return { variants, control, plannedSampleSize: requiredSampleSize(baseline, effect), baselineConversionRate: baseline, minimumDetectableEffect: effect };
}

export function keyBusy(key: string): TillpointError {
  return new TillpointError('parameter_invalid', `Another experiment on ${key} is running: stop it first`, { param: 'status' });
}

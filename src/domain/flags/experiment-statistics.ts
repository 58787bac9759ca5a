/**
 * The statistics behind an experiment's results: plain functions over counts, no framework.
 * Intervals are 95% (two-sided); see docs/flags-and-experiments.md for the choices.
 */

/** z for a two-sided 95% interval (the 97.5th percentile of the standard normal). */
export const Z_95 = 1.959963984540054;
/** z for 80% power (the 80th percentile of the standard normal). */
export const Z_POWER_80 = 0.8416212335729143;

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * Wilson score interval for a proportion `successes / trials`: unlike the textbook ±z·√(p(1−p)/n)
 * it stays inside [0, 1] and behaves at 0 and at small n, which is where early experiments live.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval {
  if (trials === 0) return { lower: 0, upper: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { lower: Math.max(0, center - half), upper: Math.min(1, center + half) };
}

/**
 * Newcombe's hybrid score interval (his method 10) for the difference of two proportions
 * `variant − control`, built from the two Wilson intervals.
 */
export function differenceInterval(
  control: { conversions: number; exposed: number },
  variant: { conversions: number; exposed: number },
  z = Z_95,
): Interval & { difference: number } {
  const p1 = control.exposed ? control.conversions / control.exposed : 0;
  const p2 = variant.exposed ? variant.conversions / variant.exposed : 0;
  const w1 = wilsonInterval(control.conversions, control.exposed, z);
  const w2 = wilsonInterval(variant.conversions, variant.exposed, z);
  const difference = p2 - p1;
  return {
    difference,
    lower: difference - Math.sqrt((p2 - w2.lower) ** 2 + (w1.upper - p1) ** 2),
    upper: difference + Math.sqrt((w2.upper - p2) ** 2 + (p1 - w1.lower) ** 2),
  };
}

/**
 * Sessions needed per variant to detect an absolute lift of `minimumDetectableEffect` over
 * `baselineRate` with a two-sided test at 5% significance and 80% power (the standard formula for
 * two proportions with the pooled variance under the null).
 */
export function requiredSampleSize(baselineRate: number, minimumDetectableEffect: number): number {
  const p1 = baselineRate;
  const p2 = baselineRate + minimumDetectableEffect;
  if (!(p1 > 0 && p1 < 1 && p2 > 0 && p2 < 1 && minimumDetectableEffect !== 0)) {
    throw new RangeError('baseline rate and baseline + effect must both lie strictly between 0 and 1');
  }
  const pooled = (p1 + p2) / 2;
  const numerator = Z_95 * Math.sqrt(2 * pooled * (1 - pooled)) + Z_POWER_80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((numerator * numerator) / (minimumDetectableEffect * minimumDetectableEffect));
}

export interface VariantCounts {
  variant: string;
  exposed: number;
  conversions: number;
}

export interface VariantResult extends VariantCounts {
  conversionRate: number;
  conversionRateInterval: Interval;
  /** Against the control; null for the control itself. */
  differenceToControl: (Interval & { difference: number }) | null;
}

export type Verdict =
  | { status: 'collecting'; winner: null; message: string }
  | { status: 'winner'; winner: string; message: string }
  | { status: 'no_significant_difference'; winner: null; message: string };

/**
 * Per-variant results and a verdict. No winner is called until every variant has reached the
 * planned sample size: peeking at an interval before then inflates false positives.
 */
export function experimentResults(counts: VariantCounts[], control: string, plannedSampleSize: number): { variants: VariantResult[]; verdict: Verdict } {
  const controlCounts = counts.find((c) => c.variant === control) ?? { variant: control, exposed: 0, conversions: 0 };
  const variants = counts.map((c) => ({
    ...c,
    conversionRate: c.exposed ? c.conversions / c.exposed : 0,
    conversionRateInterval: wilsonInterval(c.conversions, c.exposed),
    differenceToControl: c.variant === control ? null : differenceInterval(controlCounts, c),
  }));
  const short = variants.filter((v) => v.exposed < plannedSampleSize);
  if (short.length) {
    return {
      variants,
      verdict: {
        status: 'collecting',
        winner: null,
        message: `Not enough data yet: every variant needs ${plannedSampleSize} exposed sessions (${short
          .map((v) => `${v.variant} has ${v.exposed}`)
          .join(', ')})`,
      },
    };
  }
  const treatments = variants.filter((v) => v.differenceToControl);
  const better = treatments
    .filter((v) => v.differenceToControl!.lower > 0)
    .sort((a, b) => b.differenceToControl!.difference - a.differenceToControl!.difference);
  if (better[0]) {
    return {
      variants,
      verdict: { status: 'winner', winner: better[0].variant, message: `${better[0].variant} converts better than ${control}` },
    };
  }
  if (treatments.length && treatments.every((v) => v.differenceToControl!.upper < 0)) {
    return { variants, verdict: { status: 'winner', winner: control, message: `${control} converts better than every variant` } };
  }
  return {
    variants,
    verdict: { status: 'no_significant_difference', winner: null, message: 'No variant differs from the control at 95%' },
  };
}

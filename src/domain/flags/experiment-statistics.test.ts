import { describe, expect, it } from 'vitest';
import { differenceInterval, experimentResults, requiredSampleSize, wilsonInterval } from './experiment-statistics';

/**
 * Expected values are worked by hand from the formulas (and agree with the published examples in
 * Newcombe, "Two-sided confidence intervals for the single proportion" and "Interval estimation
 * for the difference between independent proportions", Statistics in Medicine 1998).
 */
describe('wilsonInterval', () => {
  it('matches hand-computed 95% intervals', () => {
    // 50/100: centre 0.5, half-width 1.887459 × √(0.0025 + 0.000096) = 0.096168.
    expect(wilsonInterval(50, 100).lower).toBeCloseTo(0.403832, 6);
    expect(wilsonInterval(50, 100).upper).toBeCloseTo(0.596168, 6);
    // 81/263: Newcombe's example, 0.2553 to 0.3662.
    expect(wilsonInterval(81, 263).lower).toBeCloseTo(0.255289, 6);
    expect(wilsonInterval(81, 263).upper).toBeCloseTo(0.36621, 5);
    // 0/10: the lower bound is exactly 0 and the upper is z²/(n + z²) = 0.277533.
    expect(wilsonInterval(0, 10)).toEqual({ lower: 0, upper: expect.closeTo(0.277533, 6) });
  });

  it('says nothing is known without trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
  });
});

describe('differenceInterval (Newcombe hybrid score)', () => {
  it('matches Newcombe’s worked example 56/70 vs 48/80: +0.2000 (0.0524 to 0.3339)', () => {
    const d = differenceInterval({ conversions: 48, exposed: 80 }, { conversions: 56, exposed: 70 });
    expect(d.difference).toBeCloseTo(0.2, 10);
    expect(d.lower).toBeCloseTo(0.052431, 6);
    expect(d.upper).toBeCloseTo(0.333873, 6);
  });

  it('10% vs 13% over 1,000 sessions each: +0.03 (0.0020 to 0.0581)', () => {
    const d = differenceInterval({ conversions: 100, exposed: 1000 }, { conversions: 130, exposed: 1000 });
    expect(d.lower).toBeCloseTo(0.002002, 6);
    expect(d.upper).toBeCloseTo(0.05807, 5);
  });
});

describe('requiredSampleSize (α = 0.05 two-sided, power 0.8)', () => {
  it('10% → 12% needs 3,841 sessions per variant', () => {
    // (1.959964·√(2·0.11·0.89) + 0.841621·√(0.09 + 0.1056))² / 0.02² = 3840.85 → 3841.
    expect(requiredSampleSize(0.1, 0.02)).toBe(3841);
  });

  it('30% → 35% needs 1,377 per variant; a drop is sized like a rise', () => {
    expect(requiredSampleSize(0.3, 0.05)).toBe(1377);
    expect(requiredSampleSize(0.35, -0.05)).toBe(1377);
  });

  it('refuses rates outside (0, 1)', () => {
    expect(() => requiredSampleSize(0.95, 0.1)).toThrow(RangeError);
  });
});

describe('experimentResults verdict', () => {
  const counts = [
    { variant: 'pay', exposed: 1000, conversions: 100 },
    { variant: 'pay_now', exposed: 1000, conversions: 130 },
  ];

  it('refuses to call a winner before every variant reaches the planned sample size', () => {
    const { verdict, variants } = experimentResults(counts, 'pay', 1001);
    expect(verdict).toMatchObject({ status: 'collecting', winner: null });
    expect(verdict.message).toContain('1001');
    // The numbers are still shown while collecting.
    expect(variants[1]!.differenceToControl!.lower).toBeCloseTo(0.002002, 6);
  });

  it('calls the variant whose whole interval lies above the control', () => {
    expect(experimentResults(counts, 'pay', 1000).verdict).toMatchObject({ status: 'winner', winner: 'pay_now' });
  });

  it('calls the control when every variant is worse, and no winner when intervals straddle 0', () => {
    expect(experimentResults(counts, 'pay_now', 1000).verdict).toMatchObject({ status: 'winner', winner: 'pay_now' });
    const close = [
      { variant: 'pay', exposed: 1000, conversions: 100 },
      { variant: 'pay_now', exposed: 1000, conversions: 110 },
    ];
    expect(experimentResults(close, 'pay', 1000).verdict).toMatchObject({ status: 'no_significant_difference', winner: null });
  });
});

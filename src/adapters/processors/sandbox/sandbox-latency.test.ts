import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizeResult, PaymentProcessor } from '../../../domain/processors/ports';
import { latencyDraw, withSandboxLatency } from './sandbox-latency';

/** Draws that make Box–Muller's normal value exactly 1: the mean plus one standard deviation. */
const oneDeviationAbove = () => {
  const draws = [1 - Math.exp(-0.5), 0];
  let next = 0;
  return () => draws[next++ % 2]!;
};

describe('the test processor’s latency (SANDBOX_LATENCY_MS)', () => {
  it('draws waits around the mean, a quarter of it apart, never below 0', () => {
    let seed = 42;
    // A small deterministic generator, so the figures do not move from run to run.
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const draws = Array.from({ length: 20_000 }, () => latencyDraw(300, random));
    const mean = draws.reduce((sum, d) => sum + d, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((sum, d) => sum + (d - mean) ** 2, 0) / draws.length);
    expect(mean).toBeGreaterThan(295);
    expect(mean).toBeLessThan(305);
    expect(sd).toBeGreaterThan(70);
    expect(sd).toBeLessThan(80);
    // About 95 % within two standard deviations, as a normal distribution has them.
    const within = draws.filter((d) => Math.abs(d - 300) <= 150).length / draws.length;
    expect(within).toBeGreaterThan(0.94);
    expect(within).toBeLessThan(0.96);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(latencyDraw(300, oneDeviationAbove())).toBeCloseTo(375, 5);
  });

  describe('on a processor', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    const answered: AuthorizeResult = { outcome: 'unknown', reason: 'test' };
    const calls: string[] = [];
    const processor = {
      name: 'test',
      authorize: async () => {
        calls.push('authorize');
        return answered;
      },
      tokenizeCard: async () => {
        calls.push('tokenizeCard');
        return { outcome: 'invalid_card' };
      },
    } as unknown as PaymentProcessor;

    it('holds a server-to-processor call for the drawn time, and tokenizing (the browser’s call) not at all', async () => {
      const slow = withSandboxLatency(processor, 300, oneDeviationAbove());
      let done = false;
      const authorizing = slow.authorize({} as never).then((result) => {
        done = true;
        return result;
      });
      await vi.advanceTimersByTimeAsync(374);
      expect(done).toBe(false);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(await authorizing).toBe(answered);
      await slow.tokenizeCard!({} as never);
      expect(calls).toEqual(['authorize', 'tokenizeCard']);
      expect(slow.name).toBe('test');
    });

    it('0 leaves the processor as it is', () => {
      expect(withSandboxLatency(processor, 0)).toBe(processor);
    });
  });
});

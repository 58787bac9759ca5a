import type { PaymentProcessor } from '../../../domain/processors/ports';

/**
 * The calls a real processor answers over the network, server to server (Braintree's gateway):
 * each waits the test processor's latency. Tokenizing stands for the browser's own call and
 * answers at once.
 */
const overTheNetwork = [
  'authorize',
  'capture',
  'void',
  'refund',
  'findByPaymentId',
  'savePaymentMethod',
  'deletePaymentMethod',
  'acceptDispute',
  'addDisputeEvidence',
  'finalizeDispute',
  'searchDisputes',
] as const;

/**
 * One wait drawn from a normal distribution around `meanMs` with a standard deviation of a quarter
 * of it (Box–Muller), never below 0: most calls within half the mean of it, a few slower, as a
 * processor's answers spread.
 */
export function latencyDraw(meanMs: number, random: () => number = Math.random): number {
  const u = 1 - random();
  const v = random();
  const standardNormal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(0, meanMs + (meanMs / 4) * standardNormal);
}

/**
 * The test processor answering as a processor across the network does (SANDBOX_LATENCY_MS): each
 * call of `overTheNetwork` waits a normally distributed time around `meanMs` before it runs, so that
 * load tests (`npm run bench:scale`) see payments held open as real ones are. 0 answers at once.
 */
export function withSandboxLatency<P extends PaymentProcessor>(processor: P, meanMs: number, random: () => number = Math.random): P {
  if (meanMs <= 0) return processor;
  const delayed: Record<string, unknown> = {};
  for (const name of overTheNetwork) {
    const call = processor[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (typeof call !== 'function') continue;
    delayed[name] = async (...args: unknown[]) => {
      await new Promise((resolve) => setTimeout(resolve, latencyDraw(meanMs, random)));
      return call.apply(processor, args);
    };
  }
  return Object.assign(Object.create(processor) as P, delayed);
}

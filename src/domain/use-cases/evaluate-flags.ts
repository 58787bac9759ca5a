import { evaluableKeys, evaluateFlag, type FlagEvaluation } from '../flag-evaluation';
import type { Deps, Scope } from '../ports';

/**
 * Evaluates flags for one unit of an account and mode: one key, or every key it has (OFREP's
 * single and bulk evaluation). Reads the store only; nothing is recorded.
 */
export async function evaluateFlags(
  deps: Deps,
  options: { scope: Scope; targetingKey: string | null; key?: string },
): Promise<FlagEvaluation[]> {
  const { scope, targetingKey, key } = options;
  const { stored, running } = await deps.store.transaction(async (tx) => ({
    stored: await tx.flags.list(scope),
    running: await tx.experiments.running(scope),
  }));
  const keys = key === undefined ? evaluableKeys(stored) : [key];
  return keys.map((k) =>
    evaluateFlag(k, stored.find((f) => f.key === k) ?? null, running.find((x) => x.key === k) ?? null, targetingKey),
  );
}

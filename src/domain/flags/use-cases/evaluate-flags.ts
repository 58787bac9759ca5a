import { evaluableKeys, evaluateFlag, type FlagEvaluation } from '../flag-evaluation';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { FlagState } from '../ports';

/** Reads the flags and running experiments of a scope (one statement, no transaction: reads only). */
export async function loadFlagState(deps: Pick<Deps, 'store'>, scope: Scope): Promise<FlagState> {
  return deps.store.read((reader) => reader.flags.listWithRunningExperiments(scope));
}

/** Whether `state` holds what evaluating `key` needs (a state read for some keys only does not hold the others). */
export const stateHolds = (state: FlagState, key: string) => state.keys === undefined || state.keys.includes(key);

/** Evaluates one key, or every key the state has, for one unit. */
export function evaluateFlagsFrom(state: FlagState, options: { targetingKey: string | null; key?: string }): FlagEvaluation[] {
  const { stored, running } = state;
  const keys = options.key === undefined ? evaluableKeys(stored) : [options.key];
  return keys.map((k) => evaluateFlag(k, stored.find((f) => f.key === k) ?? null, running.find((x) => x.key === k) ?? null, options.targetingKey));
}

/**
 * Evaluates flags for one unit of an account and mode: one key, or every key it has (OFREP's
 * single and bulk evaluation). Reads the store only; nothing is recorded.
 */
export async function evaluateFlags(deps: Deps, options: { scope: Scope; targetingKey: string | null; key?: string }): Promise<FlagEvaluation[]> {
  const { scope, targetingKey, key } = options;
  return evaluateFlagsFrom(await loadFlagState(deps, scope), { targetingKey, ...(key === undefined ? {} : { key }) });
}

import { OpenFeature, type Provider } from '@openfeature/server-sdk';
import { newId } from '../../domain/shared/ids';
import { OfrepServerProvider } from './ofrep-server-provider';
import { StoreFlagProvider, type EvaluateOne } from './store-flag-provider';
import type { FlagReader, FlagState } from '../../domain/flags/ports';
import type { Scope } from '../../domain/shared/scope';
import { evaluateFlagsFrom, stateHolds } from '../../domain/flags/use-cases/evaluate-flags';

/** A scope's flags and running experiments as stored: all of them, or only those of `keys`. */
export type ReadFlagState = (scope: Scope, keys?: readonly string[]) => Promise<FlagState>;

/**
 * Our own store's evaluation of one key: from `state` when it holds the key (flags already read),
 * else from the scope's flags read now. Evaluations of one scope that start while its flags are
 * being read share that read; nothing is kept beyond the read in flight.
 */
export function storeEvaluation(readState: ReadFlagState): EvaluateOne {
  const inFlight = new Map<string, Promise<FlagState>>();
  const readAll = (scope: Scope) => {
    const id = `${scope.accountId}:${scope.mode}`;
    let read = inFlight.get(id);
    if (!read) {
      read = readState(scope).finally(() => inFlight.delete(id));
      inFlight.set(id, read);
    }
    return read;
  };
  return async (scope, key, targetingKey, state) =>
    evaluateFlagsFrom(state && stateHolds(state, key) ? state : await readAll(scope), { targetingKey, key })[0]!;
}

/**
 * The server's flags through the OpenFeature server SDK. Each Tillpoint instance binds its provider
 * to its own OpenFeature domain, so two instances in one process (tests) never share one.
 */
export function openServerFlags(options: {
  evaluate: EvaluateOne;
  ofrepUrl: string | null;
  /** How `read` reads a scope's flags for some keys (our own store only). */
  readState?: ReadFlagState;
}): FlagReader & { close(): Promise<void> } {
  const provider: Provider = options.ofrepUrl ? new OfrepServerProvider(options.ofrepUrl) : new StoreFlagProvider(options.evaluate);
  const domain = newId('flags', 12);
  OpenFeature.setProvider(domain, provider);
  const client = OpenFeature.getClient(domain);
  const context = (scope: Scope, targetingKey: string | undefined) => ({
    accountId: scope.accountId,
    mode: scope.mode,
    ...(targetingKey ? { targetingKey } : {}),
  });
  /**
   * Evaluations over flags already read (paying's, by `read`) are our store's evaluation, called
   * directly: no provider but ours, no hook and no service takes part
   * in them, so the SDK's round (contexts merged, hooks run, details built) cost paying CPU and gave
   * nothing (docs/performance.md). The SDK's contract holds: a flag that is missing, of another type
   * or cannot be read yields the default.
   */
  const fromState = (state: FlagState): FlagReader => {
    const value = async <T extends boolean | string>(scope: Scope, key: string, defaultValue: T, targetingKey?: string): Promise<T> => {
      try {
        const result = await options.evaluate(scope, key, targetingKey || null, state);
        return 'errorCode' in result || typeof result.value !== typeof defaultValue ? defaultValue : (result.value as T);
      } catch {
        return defaultValue;
      }
    };
    return { booleanValue: value, stringValue: value };
  };
  const { readState } = options;
  return {
    booleanValue: (scope, key, defaultValue, targetingKey) => client.getBooleanValue(key, defaultValue, context(scope, targetingKey)),
    stringValue: (scope, key, defaultValue, targetingKey) => client.getStringValue(key, defaultValue, context(scope, targetingKey)),
    // Only our own store's flags are read ahead; an external service is asked each time.
    ...(options.ofrepUrl || !readState ? {} : { read: async (scope: Scope, keys: readonly string[]) => fromState(await readState(scope, keys)) }),
    close: async () => {
      await provider.onClose?.();
    },
  };
}

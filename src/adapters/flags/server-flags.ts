import { OpenFeature, type Provider } from '@openfeature/server-sdk';
import { newId } from '../../domain/shared/ids';
import { OfrepServerProvider } from './ofrep-server-provider';
import { StoreFlagProvider, type EvaluateOne } from './store-flag-provider';
import type { FlagReader, FlagState } from '../../domain/flags/ports';
import type { Scope } from '../../domain/shared/scope';

/**
 * The server's flags through the OpenFeature server SDK. Each Tillpoint instance binds its provider
 * to its own OpenFeature domain, so two instances in one process (tests) never share one.
 */
export function openServerFlags(options: { evaluate: EvaluateOne; ofrepUrl: string | null }): FlagReader & { close(): Promise<void> } {
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
   * Evaluations over flags already read (paying's, from the statement that read its session) are
   * our store's evaluation, called directly: no provider but ours, no hook and no service takes part
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
    return { booleanValue: value, stringValue: value, withState: fromState };
  };
  return {
    booleanValue: (scope, key, defaultValue, targetingKey) => client.getBooleanValue(key, defaultValue, context(scope, targetingKey)),
    stringValue: (scope, key, defaultValue, targetingKey) => client.getStringValue(key, defaultValue, context(scope, targetingKey)),
    // Only our own store's provider evaluates pre-read rows; an external service is never sent them.
    ...(options.ofrepUrl ? {} : { withState: fromState }),
    close: async () => {
      await provider.onClose?.();
    },
  };
}

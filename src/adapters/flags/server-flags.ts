import { OpenFeature, type Provider } from '@openfeature/server-sdk';
import { newId } from '../../domain/shared/ids';
import { OfrepServerProvider } from './ofrep-server-provider';
import { StoreFlagProvider, flagStateContext, type EvaluateOne } from './store-flag-provider';
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
  const reader = (state: FlagState | null): FlagReader => {
    const context = (scope: Scope, targetingKey: string | undefined) => ({
      accountId: scope.accountId,
      mode: scope.mode,
      ...(targetingKey ? { targetingKey } : {}),
      ...(state ? flagStateContext(state) : {}),
    });
    return {
      booleanValue: (scope, key, defaultValue, targetingKey) => client.getBooleanValue(key, defaultValue, context(scope, targetingKey)),
      stringValue: (scope, key, defaultValue, targetingKey) => client.getStringValue(key, defaultValue, context(scope, targetingKey)),
      // Only our own store's provider evaluates pre-read rows; an external service is never sent them.
      ...(options.ofrepUrl ? {} : { withState: (read: FlagState) => reader(read) }),
    };
  };
  return {
    ...reader(null),
    close: async () => {
      await provider.onClose?.();
    },
  };
}

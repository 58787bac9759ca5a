import { OpenFeature, type Provider } from '@openfeature/server-sdk';
import { newId } from '../domain/shared/ids';
import { OfrepServerProvider } from './ofrep-server-provider';
import { StoreFlagProvider, type EvaluateOne } from './store-flag-provider';
import type { FlagReader } from '../domain/flags/ports';

/**
 * The server's flags through the OpenFeature server SDK. Each Tillpoint instance binds its provider
 * to its own OpenFeature domain, so two instances in one process (tests) never share one.
 */
export function openServerFlags(options: { evaluate: EvaluateOne; ofrepUrl: string | null }): FlagReader & { close(): Promise<void> } {
  const provider: Provider = options.ofrepUrl ? new OfrepServerProvider(options.ofrepUrl) : new StoreFlagProvider(options.evaluate);
  const domain = newId('flags', 12);
  OpenFeature.setProvider(domain, provider);
  const client = OpenFeature.getClient(domain);
  return {
    booleanValue: (scope, key, defaultValue, targetingKey) =>
      client.getBooleanValue(key, defaultValue, { accountId: scope.accountId, mode: scope.mode, ...(targetingKey ? { targetingKey } : {}) }),
    stringValue: (scope, key, defaultValue, targetingKey) =>
      client.getStringValue(key, defaultValue, { accountId: scope.accountId, mode: scope.mode, ...(targetingKey ? { targetingKey } : {}) }),
    close: async () => {
      await provider.onClose?.();
    },
  };
}

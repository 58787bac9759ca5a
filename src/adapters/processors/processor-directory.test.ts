import { describe, expect, it } from 'vitest';
import type { PaymentProcessor } from '../../domain/processors/ports';
import type { BraintreeSettings, ProcessorConfig } from '../../domain/processors/processor-config';
import type { Scope } from '../../domain/shared/scope';
import { processorDirectory } from './processor-directory';

const settings = (merchantId: string): BraintreeSettings => ({
  environment: 'sandbox',
  merchantId,
  publicKey: 'public',
  privateKey: 'private',
  merchantAccounts: {},
  googlePayMerchantId: null,
  requireThreeDSecure: false,
  requireCvvForSavedCards: false,
});

/** A directory over `configs` (by account), counting the Braintree gateways it makes. */
function directoryOver(configs: Map<string, ProcessorConfig>, gatewaysKept: number) {
  const made: string[] = [];
  const test = { name: 'test' } as PaymentProcessor;
  const directory = processorDirectory({
    configs: { get: async (scope) => configs.get(scope.accountId) ?? null, scopesOf: async () => [] },
    test,
    braintree: (s) => {
      made.push(s.merchantId);
      return { name: 'braintree', merchantId: s.merchantId } as unknown as PaymentProcessor;
    },
    sandboxDisputes: { decideDue: async () => undefined, scopesWithNews: async () => [] },
    now: () => new Date(),
    gatewaysKept,
  });
  return { directory, made, test };
}

const braintreeConfig = (accountId: string, merchantId: string, at: number): ProcessorConfig => ({
  accountId,
  mode: 'live',
  processor: 'braintree',
  braintree: settings(merchantId),
  updatedAt: new Date(at),
});

describe('the processor directory', () => {
  it('keeps at most its bound of Braintree gateways, however many merchants pay: the least recently used goes', async () => {
    const configs = new Map<string, ProcessorConfig>();
    for (let i = 0; i < 50; i++) configs.set(`acct_${i}`, braintreeConfig(`acct_${i}`, `merchant_${i}`, 1000));
    const { directory, made } = directoryOver(configs, 8);
    const scope = (i: number): Scope => ({ accountId: `acct_${i}`, mode: 'live' });
    for (let i = 0; i < 50; i++) await directory.forScope(scope(i));
    expect(made).toHaveLength(50);
    expect(directory.gatewaysHeld).toBe(8);
    // The last used are kept: asked again, no new gateway.
    const kept = await directory.forScope(scope(49));
    expect(await directory.forScope(scope(49))).toBe(kept);
    expect(made).toHaveLength(50);
    // The first was dropped: asked again, a new one.
    await directory.forScope(scope(0));
    expect(made).toHaveLength(51);
    expect(directory.gatewaysHeld).toBe(8);
  });

  it("makes a new gateway when a merchant's config is saved again, in place of the old one", async () => {
    const configs = new Map<string, ProcessorConfig>([['acct_1', braintreeConfig('acct_1', 'first', 1000)]]);
    const { directory, made } = directoryOver(configs, 8);
    const scope: Scope = { accountId: 'acct_1', mode: 'live' };
    const before = await directory.forScope(scope);
    expect(await directory.forScope(scope)).toBe(before);
    configs.set('acct_1', braintreeConfig('acct_1', 'second', 2000));
    const after = await directory.forScope(scope);
    expect(after).not.toBe(before);
    expect(made).toEqual(['first', 'second']);
    expect(directory.gatewaysHeld).toBe(1);
  });

  it('serves the test processor in test mode without a Braintree config, and refuses live mode without one', async () => {
    const { directory, test } = directoryOver(new Map(), 8);
    expect(await directory.forScope({ accountId: 'acct_1', mode: 'test' })).toBe(test);
    await expect(directory.forScope({ accountId: 'acct_1', mode: 'live' })).rejects.toMatchObject({ code: 'processor_unavailable' });
  });
});

import { LRUCache } from 'lru-cache';
import type { BankDebitReport, LocalPaymentReport, PaymentProcessor, ProcessorDirectory } from '../../domain/processors/ports';
import { processorServing, type BraintreeSettings, type ProcessorConfigStore } from '../../domain/processors/processor-config';
import type { SandboxDisputeLedger } from '../../domain/processors/sandbox-ports';
import type { Scope } from '../../domain/shared/scope';

/** How far back the test processor's dispute news is looked for (its job runs every few seconds). */
const TEST_DISPUTE_NEWS_MS = 10 * 60_000;

/**
 * Braintree gateways kept at most, the least recently used dropped first: one per scope that pays
 * through Braintree, so a server with many merchants keeps the busy ones, not every one it has seen.
 */
export const BRAINTREE_GATEWAYS_KEPT = 64;

/**
 * Picks each scope's processor (`processorServing`): the built-in test processor, or a Braintree
 * processor over the scope's saved config. A Braintree SDK gateway is made once per saved config
 * (a new save makes a new one, and the old one is dropped) and kept while it is among the
 * `gatewaysKept` scopes used last.
 */
export function processorDirectory(options: {
  configs: Pick<ProcessorConfigStore, 'get'> & { scopesOf(processor: 'braintree'): Promise<Scope[]> };
  test: PaymentProcessor;
  /** A Braintree processor over these settings (the SDK's gateway is made here). */
  braintree: (settings: BraintreeSettings) => PaymentProcessor;
  sandboxDisputes: Pick<SandboxDisputeLedger, 'decideDue' | 'scopesWithNews'>;
  /** The test processor's local payments completed by now, each once (its `dueLocalPaymentReports`). */
  testLocalPaymentReports?: () => Promise<Array<{ scope: Scope; report: LocalPaymentReport }>>;
  /** The test processor's bank debit news due by now, each once (its `dueBankDebitReports`). */
  testBankDebitReports?: () => Promise<BankDebitReport[]>;
  now: () => Date;
  gatewaysKept?: number;
}): ProcessorDirectory & { readonly gatewaysHeld: number } {
  const gateways = new LRUCache<string, { savedAt: number; processor: PaymentProcessor }>({ max: options.gatewaysKept ?? BRAINTREE_GATEWAYS_KEPT });
  return {
    async forScope(scope) {
      const config = await options.configs.get({ accountId: scope.accountId, mode: scope.mode });
      if (processorServing(scope, config) === 'test' || config?.processor !== 'braintree') return options.test;
      const key = `${scope.accountId}:${scope.mode}`;
      const savedAt = config.updatedAt.getTime();
      const kept = gateways.get(key);
      if (kept?.savedAt === savedAt) return kept.processor;
      const processor = options.braintree(config.braintree);
      gateways.set(key, { savedAt, processor });
      return processor;
    },
    async disputeScopes(processor) {
      if (processor === 'braintree') return options.configs.scopesOf('braintree');
      // The test processor's disputes that opened or moved lately (recording them again is harmless).
      const at = options.now();
      await options.sandboxDisputes.decideDue(at);
      return options.sandboxDisputes.scopesWithNews(new Date(at.getTime() - TEST_DISPUTE_NEWS_MS), at);
    },
    testLocalPaymentReports: async () => (await options.testLocalPaymentReports?.()) ?? [],
    testBankDebitReports: async () => (await options.testBankDebitReports?.()) ?? [],
    get gatewaysHeld() {
      return gateways.size;
    },
  };
}

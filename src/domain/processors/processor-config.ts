import type { Mode } from '../shared/events';
import type { Store } from '../deps';
import type { AuditEntry } from '../team/entities';
import type { Scope } from '../shared/scope';
import type { Clock } from '../shared/clock';
import { TillpointError } from '../shared/errors';

/** Where a Braintree account lives. `development` is the SDK's local gateway (localhost:GATEWAY_PORT). */
export type BraintreeEnvironment = 'sandbox' | 'production' | 'development';

/** A merchant's Braintree credentials and settings for one mode (design.md §3, ProcessorConfig). */
export interface BraintreeSettings {
  environment: BraintreeEnvironment;
  merchantId: string;
  publicKey: string;
  /** Kept encrypted at rest; never shown by any API, CLI output or log. */
  privateKey: string;
  /** Braintree merchant account id per ISO 4217 currency (upper case), e.g. `{ USD: 'shop_usd' }`. */
  merchantAccounts: Record<string, string>;
  /** Google's merchant id, needed for Google Pay in production; null offers Google Pay only in sandbox. */
  googlePayMerchantId: string | null;
  /** Ask Braintree to refuse any card payment without a successful 3-D Secure authentication. */
  requireThreeDSecure: boolean;
  /**
   * The account's Braintree CVV rules refuse a vaulted card's sale without a CVV: the checkout page
   * asks for a saved card's CVC again on every session (a CVV-only nonce goes with the sale).
   */
  requireCvvForSavedCards: boolean;
}

/** The processor an account uses in one mode: the built-in test processor or Braintree. */
export type ProcessorConfig =
  | { accountId: string; mode: Mode; processor: 'test'; updatedAt: Date }
  | { accountId: string; mode: Mode; processor: 'braintree'; braintree: BraintreeSettings; updatedAt: Date };

/**
 * Which processor serves a scope: Braintree where its config says so, else the built-in test
 * processor, which never serves live mode.
 */
export function processorServing(scope: Scope, config: ProcessorConfig | null): 'braintree' | 'test' {
  if (config?.processor === 'braintree') return 'braintree';
  if (scope.mode === 'test') return 'test';
  throw new TillpointError('processor_unavailable', 'No processor is configured for live mode');
}

/** Persistence of processor configs; the implementation encrypts the private key. */
export interface ProcessorConfigStore {
  /** False when no encryption key is configured: Braintree credentials cannot be stored then. */
  readonly canStoreSecrets: boolean;
  get(scope: Scope): Promise<ProcessorConfig | null>;
  /** Writes the config and, when given, the audit line of the change, in one transaction. */
  save(config: ProcessorConfig, audit: AuditEntry | null): Promise<void>;
}

/** One thing found wrong with a processor config when it was tried against the gateway. */
export interface ProcessorProblem {
  kind: 'authentication' | 'authorization' | 'unreachable' | 'merchant_account_missing' | 'unexpected';
  message: string;
  currency?: string;
}

/** Tries a Braintree config against its gateway (a client token per merchant account). */
export interface ProcessorConnectionCheck {
  check(settings: BraintreeSettings): Promise<ProcessorProblem[]>;
}

/** What the processor-settings use cases need; handed in by the composition root. */
export interface ProcessorSettingsDeps {
  store: Store;
  clock: Clock;
  processorConfigs: ProcessorConfigStore;
  connectionCheck: ProcessorConnectionCheck;
}

export interface ProcessorCheck {
  processor: 'test' | 'braintree' | 'none';
  ok: boolean;
  problems: ProcessorProblem[];
}

/** A processor config as it may be shown: the private key reduced to whether it is set. */
export interface ProcessorConfigView {
  account: string;
  mode: Mode;
  processor: 'test' | 'braintree' | 'none';
  braintree?: {
    environment: string;
    merchant_id: string;
    public_key: string;
    private_key: 'set';
    merchant_accounts: Record<string, string>;
    google_pay_merchant_id: string | null;
    require_three_d_secure: boolean;
    require_cvv_for_saved_cards: boolean;
  };
  updated_at: string | null;
}

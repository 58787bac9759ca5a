import { apiKeyPrefix, hashApiKey } from '../api-key-secret';
import { currencyRule } from '../currency';
import type { Account, ApiKey, ApiKeyKind } from '../entities';
import { TillpointError } from '../errors';
import type { Mode } from '../events';
import { newId } from '../ids';
import type { Deps, UnitOfWork } from '../ports';

export interface CreatedAccount {
  account: Account;
  /** The test secret key in clear: shown once, stored only as a hash. */
  testSecretKey: string;
}

/** Checks a new account's name and currency and builds it; nothing is stored yet. */
export function newAccount(options: { name: string; defaultCurrency?: string }, now: Date): Account {
  const name = options.name.trim();
  if (name.length < 1 || name.length > 100) {
    throw new TillpointError('parameter_invalid', 'name must be 1 to 100 characters', { param: 'name' });
  }
  const currency = currencyRule(options.defaultCurrency ?? 'USD');
  if (!currency) {
    throw new TillpointError('currency_not_supported', 'default currency is not supported', {
      param: 'default_currency',
    });
  }
  return {
    id: newId('acct', 16),
    name,
    defaultCurrency: currency.code,
    branding: { displayName: null, logoUrl: null, accentColor: null },
    supportEmail: null,
    createdAt: now,
  };
}

/** Creates a merchant account with a test secret key. */
export async function createAccount(
  deps: Deps,
  options: { name: string; defaultCurrency?: string },
): Promise<CreatedAccount> {
  const now = deps.clock.now();
  const account = newAccount(options, now);
  return deps.store.transaction(async (tx) => {
    await tx.accounts.insert(account);
    const testSecretKey = await issueApiKey(tx, { accountId: account.id, mode: 'test', kind: 'secret', at: now });
    return { account, testSecretKey };
  });
}

/** Makes a new key and the record to store for it (its hash); the secret is never readable again. */
export async function buildApiKey(options: {
  accountId: string;
  mode: Mode;
  kind: ApiKeyKind;
  at: Date;
}): Promise<{ key: ApiKey; secret: string }> {
  const secret = newId(apiKeyPrefix(options.kind, options.mode).slice(0, -1), 32);
  const key: ApiKey = {
    id: newId('key', 16),
    accountId: options.accountId,
    mode: options.mode,
    kind: options.kind,
    prefix: apiKeyPrefix(options.kind, options.mode),
    secretHash: await hashApiKey(secret),
    last4: secret.slice(-4),
    createdAt: options.at,
    lastUsedAt: null,
    revokedAt: null,
  };
  return { key, secret };
}

/** Makes a new key, stores its hash and returns the secret, which is never readable again. */
export async function issueApiKey(
  tx: UnitOfWork,
  options: { accountId: string; mode: Mode; kind: ApiKeyKind; at: Date },
): Promise<string> {
  const { key, secret } = await buildApiKey(options);
  await tx.apiKeys.insert(key);
  return secret;
}

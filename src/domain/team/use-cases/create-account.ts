import type { Mode } from '../../shared/events';
import type { Deps, UnitOfWork } from '../../deps';
import type { Account, ApiKeyKind } from '../entities';
import { newAccount, buildApiKey } from '../rules';

export interface CreatedAccount {
  account: Account;
  /** The test secret key in clear: shown once, stored only as a hash. */
  testSecretKey: string;
}

/** Creates a merchant account with a test secret key. */
export async function createAccount(deps: Deps, options: { name: string; defaultCurrency?: string }): Promise<CreatedAccount> {
  const now = deps.clock.now();
  const account = newAccount(options, now);
  return deps.store.transaction(async (tx) => {
    await tx.accounts.insert(account);
    const testSecretKey = await issueApiKey(tx, { accountId: account.id, mode: 'test', kind: 'secret', at: now });
    return { account, testSecretKey };
  });
}

/** Makes a new key, stores its hash and returns the secret, which is never readable again. */
export async function issueApiKey(tx: UnitOfWork, options: { accountId: string; mode: Mode; kind: ApiKeyKind; at: Date }): Promise<string> {
  const { key, secret } = await buildApiKey(options);
  await tx.apiKeys.insert(key);
  return secret;
}

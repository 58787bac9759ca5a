import { resourceMissing } from '../../shared/errors';
import type { Mode } from '../../shared/events';
import type { ProcessorSettingsDeps, ProcessorCheck } from '../processor-config';

/**
 * Tries the account's processor config against the processor's gateway and lists what is wrong:
 * rejected credentials, missing permissions, an unreachable gateway, a currency without a merchant
 * account.
 */
export async function checkProcessorConfig(deps: ProcessorSettingsDeps, options: { accountId: string; mode: Mode }): Promise<ProcessorCheck> {
  const account = await deps.store.read((reader) => reader.accounts.get(options.accountId));
  if (!account) throw resourceMissing('account', options.accountId);
  const config = await deps.processorConfigs.get({ accountId: account.id, mode: options.mode });
  if (!config || config.processor === 'test') {
    if (options.mode === 'test') return { processor: 'test', ok: true, problems: [] };
    return {
      processor: 'none',
      ok: false,
      problems: [{ kind: 'unexpected', message: 'Live mode has no processor: set one with `tillpoint processor set --mode live … braintree`' }],
    };
  }
  const problems = await deps.connectionCheck.check(config.braintree);
  const defaultCurrency = account.defaultCurrency.toUpperCase();
  if (!config.braintree.merchantAccounts[defaultCurrency] && Object.keys(config.braintree.merchantAccounts).length > 0) {
    problems.push({
      kind: 'merchant_account_missing',
      currency: defaultCurrency,
      message: `No merchant account is set for ${defaultCurrency}, the account's default currency: add --merchant-account ${defaultCurrency}=<id>`,
    });
  }
  return { processor: 'braintree', ok: problems.length === 0, problems };
}

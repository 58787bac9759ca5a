import { resourceMissing } from '../../shared/errors';
import type { Mode } from '../../shared/events';
import type { ProcessorSettingsDeps, ProcessorConfigView } from '../processor-config';

/** Shows the processor an account uses in one mode; without a config, test mode uses the test processor. */
export async function showProcessorConfig(deps: ProcessorSettingsDeps, options: { accountId: string; mode: Mode }): Promise<ProcessorConfigView> {
  const account = await deps.store.read((reader) => reader.accounts.get(options.accountId));
  if (!account) throw resourceMissing('account', options.accountId);
  const config = await deps.processorConfigs.get({ accountId: account.id, mode: options.mode });
  if (!config) {
    return { account: account.id, mode: options.mode, processor: options.mode === 'test' ? 'test' : 'none', updated_at: null };
  }
  const base = { account: account.id, mode: options.mode, updated_at: config.updatedAt.toISOString() };
  if (config.processor === 'test') return { ...base, processor: 'test' };
  const b = config.braintree;
  return {
    ...base,
    processor: 'braintree',
    braintree: {
      environment: b.environment,
      merchant_id: b.merchantId,
      public_key: b.publicKey,
      private_key: 'set',
      merchant_accounts: b.merchantAccounts,
      google_pay_merchant_id: b.googlePayMerchantId,
      require_three_d_secure: b.requireThreeDSecure,
      require_cvv_for_saved_cards: b.requireCvvForSavedCards,
    },
  };
}

import { newAuditEntry } from '../../team/audit';
import { currencyRule } from '../../shared/currency';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Mode } from '../../shared/events';
import type { BraintreeSettings, ProcessorConfig, ProcessorSettingsDeps } from '../processor-config';
import type { Actor } from '../../team/entities';

/** `actor`: the member audited against (`processor.set.<processor>`); null from the operator's CLI. */
export type SetProcessorConfigOptions = { accountId: string; mode: Mode; actor: Actor | null } & (
  | { processor: 'test' }
  | { processor: 'braintree'; braintree: BraintreeSettings }
);

const CREDENTIAL = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Chooses the processor of an account in one mode: the built-in test processor (test mode only) or
 * Braintree with its credentials. Used by `tillpoint processor set` and, later, the dashboard.
 *
 * @example setProcessorConfig(deps, { accountId, mode: 'test', processor: 'braintree', braintree: { environment: 'sandbox', … } })
 */
export async function setProcessorConfig(deps: ProcessorSettingsDeps, options: SetProcessorConfigOptions): Promise<ProcessorConfig> {
  const account = await deps.store.read((reader) => reader.accounts.get(options.accountId));
  if (!account) throw resourceMissing('account', options.accountId);
  const updatedAt = deps.clock.now();
  let config: ProcessorConfig;
  if (options.processor === 'test') {
    if (options.mode === 'live') {
      throw new TillpointError('parameter_invalid', 'The test processor never serves live mode; configure Braintree for live mode', {
        param: 'processor',
      });
    }
    config = { accountId: account.id, mode: options.mode, processor: 'test', updatedAt };
  } else {
    config = {
      accountId: account.id,
      mode: options.mode,
      processor: 'braintree',
      braintree: validBraintreeSettings(options.mode, options.braintree),
      updatedAt,
    };
    if (!deps.processorConfigs.canStoreSecrets) {
      throw new TillpointError(
        'parameter_invalid',
        'Braintree credentials are stored encrypted, and no encryption key is configured: set TILLPOINT_SECRET_KEY (32 random bytes, hex or base64) and try again',
        { param: 'private_key' },
      );
    }
  }
  const audit =
    options.actor &&
    newAuditEntry({
      accountId: account.id,
      mode: options.mode,
      actor: options.actor,
      action: `processor.set.${options.processor}`,
      target: account.id,
      at: updatedAt,
    });
  await deps.processorConfigs.save(config, audit);
  return config;
}

function validBraintreeSettings(mode: Mode, settings: BraintreeSettings): BraintreeSettings {
  if (mode === 'live' && settings.environment !== 'production') {
    throw new TillpointError('parameter_invalid', 'Live mode takes real money: use a Braintree production account', {
      param: 'environment',
    });
  }
  if (mode === 'test' && settings.environment === 'production') {
    throw new TillpointError('parameter_invalid', 'Test mode must not charge real cards: use a Braintree sandbox account', {
      param: 'environment',
    });
  }
  for (const [param, value] of [
    ['merchant_id', settings.merchantId],
    ['public_key', settings.publicKey],
    ['private_key', settings.privateKey],
  ] as const) {
    if (!CREDENTIAL.test(value)) {
      throw new TillpointError('parameter_invalid', `${param} must be 1–100 letters, digits, '_' or '-' as shown in the Braintree Control Panel`, { param });
    }
  }
  const merchantAccounts: Record<string, string> = {};
  for (const [currency, accountId] of Object.entries(settings.merchantAccounts)) {
    const code = currency.toUpperCase();
    if (!currencyRule(code)) {
      throw new TillpointError('currency_not_supported', `Currency ${currency} is not supported`, { param: 'merchant_account' });
    }
    if (!CREDENTIAL.test(accountId)) {
      throw new TillpointError('parameter_invalid', `The merchant account id for ${code} is not valid`, { param: 'merchant_account' });
    }
    merchantAccounts[code] = accountId;
  }
  const googlePayMerchantId = settings.googlePayMerchantId?.trim() || null;
  if (googlePayMerchantId !== null && !/^[A-Za-z0-9]{5,40}$/.test(googlePayMerchantId)) {
    throw new TillpointError('parameter_invalid', 'The Google Pay merchant id is not valid', { param: 'google_pay_merchant_id' });
  }
  return { ...settings, merchantAccounts, googlePayMerchantId };
}

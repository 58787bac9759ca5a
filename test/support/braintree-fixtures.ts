import type { BraintreeSettings } from '../../src/domain/processors/processor-config';
import type { EmulatorCredentials } from './braintree-gateway-emulator';

/** One Braintree merchant as the emulator knows it, and the matching settings for our adapter. */
export const emulatedMerchant: EmulatorCredentials = {
  merchantId: 'tillpoint_merchant',
  publicKey: 'pub_tillpoint',
  privateKey: 'priv_tillpoint_S3cret',
  merchantAccounts: { shop_usd: 'USD', shop_eur: 'EUR' },
};

export function emulatedMerchantSettings(overrides: Partial<BraintreeSettings> = {}): BraintreeSettings {
  return {
    environment: 'development',
    merchantId: emulatedMerchant.merchantId,
    publicKey: emulatedMerchant.publicKey,
    privateKey: emulatedMerchant.privateKey,
    merchantAccounts: { USD: 'shop_usd', EUR: 'shop_eur' },
    googlePayMerchantId: null,
    requireThreeDSecure: false,
    requireCvvForSavedCards: false,
    ...overrides,
  };
}

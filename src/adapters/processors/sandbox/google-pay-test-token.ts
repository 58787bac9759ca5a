import type { PaymentMethodDetails } from '../../../domain/payments/entities';
import type { GooglePayTestPayment } from '../../../domain/processors/ports';

/** Google's card networks (`paymentMethodData.info.cardNetwork`) → the brand names of our API. */
const networks: Record<string, string> = {
  VISA: 'visa',
  MASTERCARD: 'mastercard',
  AMEX: 'amex',
  DISCOVER: 'discover',
  JCB: 'jcb',
  INTERAC: 'interac',
};

/**
 * Reads what Google Pay returns in its TEST environment with the test gateway (`gateway:
 * "example"`): a payment token shaped like a real one (protocolVersion, signature, signedMessage)
 * that no processor can decrypt, and the card network and last four digits Google shows. Only the
 * test processor accepts it, so it can never move money.
 */
export function readGooglePayTestToken(
  payment: GooglePayTestPayment,
): { ok: true; paymentMethod: PaymentMethodDetails } | { ok: false; message: string; param: string } {
  let token: Record<string, unknown>;
  try {
    token = JSON.parse(payment.token) as Record<string, unknown>;
  } catch {
    return { ok: false, message: 'The Google Pay token is not valid JSON', param: 'token' };
  }
  if (
    typeof token !== 'object' ||
    token === null ||
    !['ECv1', 'ECv2'].includes(String(token.protocolVersion)) ||
    typeof token.signature !== 'string' ||
    typeof token.signedMessage !== 'string'
  ) {
    return { ok: false, message: 'The Google Pay token is not a payment token from the test gateway', param: 'token' };
  }
  const brand = networks[payment.cardNetwork.toUpperCase()];
  if (!brand) return { ok: false, message: `Unknown card network ${payment.cardNetwork}`, param: 'card_network' };
  if (!/^\d{4}$/.test(payment.cardDetails)) {
    return { ok: false, message: 'card_details must be the last four digits', param: 'card_details' };
  }
  return {
    ok: true,
    paymentMethod: { type: 'google_pay', brand, last4: payment.cardDetails, expMonth: null, expYear: null, fingerprint: null },
  };
}

/** Google's documented test gateway configuration, for `tokenizationSpecification.parameters`. */
export const googlePayTestGateway = {
  gateway: 'example',
  gatewayMerchantId: 'exampleGatewayMerchantId',
  environment: 'TEST',
} as const;

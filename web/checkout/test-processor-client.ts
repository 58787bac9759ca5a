import { checkoutApi, type PublicSession } from './api';
import type { CardFormEngine } from './card-form/engine';
import { allowedCardNetworks, type GooglePaymentData, type GooglePayProvider } from './google-pay/google-pay';
import type { GooglePaySetup } from './payment-methods';
import type { ProcessorClient } from './processor-client';

/**
 * The test processor's client. With 3-D Secure on every payment (`three_d_secure` at `always`), each
 * card is verified as the Braintree sandbox verifies it, a test challenge shown where the card asks.
 */
export function testProcessorClient(
  session: PublicSession,
  engine: CardFormEngine | null,
  googlePay: GooglePaySetup | null,
  verifyBeforePaying: boolean,
): ProcessorClient {
  return {
    engine,
    unavailable: false,
    googlePaySetup: googlePay,
    googlePay: googlePay ? Promise.resolve(testGatewayGooglePay(session, googlePay)) : null,
    deviceData: async () => null,
    warm: () => undefined,
    authenticate: async ({ nonce }) => {
      if (!verifyBeforePaying) return { ok: true, nonce };
      return (await import('./three-d-secure/test-challenge')).authenticateInTestMode(session, nonce);
    },
    verifiesWhenIssuerAsks: false,
  };
}

/** Google Pay with Google's documented test gateway: the token goes to our server in test mode. */
function testGatewayGooglePay(session: PublicSession, setup: GooglePaySetup): GooglePayProvider {
  return {
    async paymentDataRequest(transaction) {
      return {
        apiVersion: 2,
        apiVersionMinor: 0,
        emailRequired: true,
        merchantInfo: { merchantName: transaction.merchantName },
        allowedPaymentMethods: [
          {
            type: 'CARD',
            parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks },
            tokenizationSpecification: {
              type: 'PAYMENT_GATEWAY',
              parameters: { gateway: setup.gateway, gatewayMerchantId: setup.gatewayMerchantId },
            },
          },
        ],
        transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: transaction.totalPrice, currencyCode: transaction.currencyCode },
      };
    },
    async toNonce(data: GooglePaymentData) {
      const token = await checkoutApi.tokenizeGooglePay(session.id, {
        token: data.paymentMethodData.tokenizationData.token,
        card_network: data.paymentMethodData.info?.cardNetwork ?? '',
        card_details: data.paymentMethodData.info?.cardDetails ?? '',
      });
      return token.nonce;
    },
  };
}

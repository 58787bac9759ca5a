import { reportCheckoutFailure } from '../report';
import { PAY_JS_URL, payJsScriptUrl } from '../trusted-types';

export { PAY_JS_URL };

/** The Google Pay client as Google documents it (the calls we make). */
export interface PaymentsClient {
  isReadyToPay(request: Record<string, unknown>): Promise<{ result: boolean }>;
  createButton(options: Record<string, unknown>): HTMLElement;
  loadPaymentData(request: Record<string, unknown>): Promise<GooglePaymentData>;
  prefetchPaymentData(request: Record<string, unknown>): void;
}

export interface GooglePaymentData {
  apiVersion: number;
  email?: string;
  paymentMethodData: {
    type: string;
    description?: string;
    info?: { cardNetwork?: string; cardDetails?: string };
    tokenizationData: { type: string; token: string };
  };
}

type PaymentsClientConstructor = new (options: { environment: 'TEST' | 'PRODUCTION' }) => PaymentsClient;

declare global {
  interface Window {
    google?: { payments?: { api?: { PaymentsClient?: PaymentsClientConstructor } } };
  }
}

let payJs: Promise<PaymentsClientConstructor> | null = null;

/** Adds pay.js once; rejects when it is blocked or does not load within `timeoutMs`. */
export function loadPayJs(timeoutMs = 10_000): Promise<PaymentsClientConstructor> {
  payJs ??= new Promise<PaymentsClientConstructor>((resolve, reject) => {
    const ready = () => window.google?.payments?.api?.PaymentsClient;
    if (ready()) return resolve(ready()!);
    const script = document.createElement('script');
    script.src = payJsScriptUrl();
    script.async = true;
    const timer = setTimeout(() => reject(new Error('pay.js did not load in time')), timeoutMs);
    script.onload = () => {
      clearTimeout(timer);
      const PaymentsClient = ready();
      if (PaymentsClient) resolve(PaymentsClient);
      else reject(new Error('pay.js loaded without google.payments.api.PaymentsClient'));
    };
    script.onerror = () => {
      clearTimeout(timer);
      reject(new Error('pay.js could not be loaded'));
    };
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    payJs = null;
    reportCheckoutFailure('google_pay', error);
    throw error;
  });
  return payJs;
}

/** The languages Google Pay's button speaks (`buttonLocale`, ISO 639-1), per Google's reference. */
const buttonLocales = new Set([
  'en',
  'ar',
  'bg',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'et',
  'fi',
  'fr',
  'hr',
  'id',
  'it',
  'ja',
  'ko',
  'ms',
  'nl',
  'no',
  'pl',
  'pt',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'th',
  'tr',
  'uk',
  'zh',
]);

/**
 * The page's locale → Google's `buttonLocale` (`pt-BR` → `pt`, `nb` → `no`, `zh-Hant` → `zh`), or
 * undefined for a language Google's button does not speak (it then follows the browser).
 */
export function googlePayButtonLocale(locale: string): string | undefined {
  const language = locale.split('-')[0]!.toLowerCase();
  const google = language === 'nb' ? 'no' : language;
  return buttonLocales.has(google) ? google : undefined;
}

/** Card networks offered in the Google Pay sheet. */
export const allowedCardNetworks = ['AMEX', 'DISCOVER', 'JCB', 'MASTERCARD', 'VISA'];

/** The CARD method without tokenization, for `isReadyToPay`. */
export const baseCardMethod = {
  type: 'CARD',
  parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks },
};

/** Where a Google Pay token goes: braintree-web's google-payment, or our test gateway exchange. */
export interface GooglePayProvider {
  /** The full PaymentDataRequest for the sheet, for this amount. */
  paymentDataRequest(transaction: { totalPrice: string; currencyCode: string; merchantName: string }): Promise<Record<string, unknown>>;
  /** What the sheet returned → a nonce our server charges. */
  toNonce(paymentData: GooglePaymentData): Promise<string>;
}

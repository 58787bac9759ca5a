import { useEffect, useRef, useState } from 'react';
import type { Translate } from '../i18n';
import type { GooglePaySetup } from '../payment-methods';
import { reportCheckoutFailure } from '../report';
import { useLatest } from '../use-latest';
import { baseCardMethod, googlePayButtonLocale, loadPayJs, type GooglePaymentData, type GooglePayProvider } from './google-pay';

interface GooglePayAreaProps {
  setup: GooglePaySetup;
  provider: Promise<GooglePayProvider> | null;
  transaction: { totalPrice: string; currencyCode: string; merchantName: string };
  disabled: boolean;
  /** The card form is offered too ("or pay by card" under the button). */
  cardOffered: boolean;
  t: Translate;
  /** The shopper approved in the sheet; pay with this. */
  onPaymentData: (data: GooglePaymentData, provider: GooglePayProvider) => void;
  /** Google Pay could not start (sheet failed, component missing): the page says so. */
  onUnavailable: () => void;
  /** This browser cannot show the button (pay.js said no, or did not load). */
  onAbsent: () => void;
}

/**
 * The Google Pay wallet button. Loads Google's pay.js only here, asks `isReadyToPay`, and shows
 * Google's own button only when the answer is yes; otherwise the area stays empty and the card form
 * is the way to pay.
 */
export function GooglePayArea({ setup, provider, transaction, disabled, cardOffered, t, onPaymentData, onUnavailable, onAbsent }: GooglePayAreaProps) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const started = useRef<{ client: import('./google-pay').PaymentsClient; provider: GooglePayProvider } | null>(null);
  const disabledRef = useRef(disabled);
  disabledRef.current = disabled;

  const openSheet = async () => {
    const current = started.current;
    if (!current || disabledRef.current) return;
    let data: GooglePaymentData;
    try {
      data = await current.client.loadPaymentData(await current.provider.paymentDataRequest(transaction));
    } catch (error) {
      if ((error as { statusCode?: string }).statusCode === 'CANCELED') return;
      reportCheckoutFailure('google_pay', error);
      onUnavailable();
      return;
    }
    onPaymentData(data, current.provider);
  };

  // Set up once per provider; the button's tap reads the page as it is then (its amount, its handlers).
  const latest = useLatest({ openSheet, onAbsent, transaction, locale: t.locale, environment: setup.environment });

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      if (!provider) return;
      try {
        const [PaymentsClient, resolvedProvider] = await Promise.all([loadPayJs(), provider]);
        const client = new PaymentsClient({ environment: latest.current.environment });
        const answer = await client.isReadyToPay({ apiVersion: 2, apiVersionMinor: 0, allowedPaymentMethods: [baseCardMethod] });
        if (cancelled || !container.current) return;
        if (!answer.result) return latest.current.onAbsent();
        started.current = { client, provider: resolvedProvider };
        const button = client.createButton({
          onClick: () => void latest.current.openSheet(),
          buttonType: 'pay',
          buttonSizeMode: 'fill',
          buttonLocale: googlePayButtonLocale(latest.current.locale),
        });
        container.current.replaceChildren(button);
        setReady(true);
        client.prefetchPaymentData(await resolvedProvider.paymentDataRequest(latest.current.transaction));
      } catch (error) {
        // pay.js or the component did not load: no button, and the card form still works.
        reportCheckoutFailure('google_pay', error);
        if (!cancelled) latest.current.onAbsent();
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [provider, latest]);

  return (
    <div className="wallets" data-testid="google-pay" aria-busy={disabled}>
      <div ref={container} className={`google-pay-button${disabled ? ' is-disabled' : ''}`} />
      {ready && cardOffered && (
        <p className="wallet-divider">
          <span>{t('wallet.orPayByCard')}</span>
        </p>
      )}
    </div>
  );
}

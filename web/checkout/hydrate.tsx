import { hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { primeMessages } from './i18n';
import type { CheckoutPageData } from './page-data';
import { processorClientFor } from './processor-client';
import { reportFrameHeight } from './embedded-frame';
import { reportCheckoutFailure, startCheckoutReporting } from './report';

/**
 * React's part of the checkout page, loaded by the page's first script (main.tsx): at once, or
 * with Braintree once Hosted Fields take typing. Hydrates the markup the server rendered from the
 * same data (src/http/checkout-page).
 */
export function hydrate(data: CheckoutPageData): void {
  // The shopper's catalogue, inlined by the server: useTranslator finds it without a request.
  primeMessages(data.messages);
  startCheckoutReporting(data.sentry, data.sessionId);
  reportFrameHeight();
  // The card engine (and braintree-web's components) start now, beside hydration.
  if (data.view.kind === 'ready') void processorClientFor(data.view.session, data.flags).catch(() => undefined);
  hydrateRoot(document.getElementById('root')!, <App data={data} />, {
    onUncaughtError: (error) => reportCheckoutFailure('unexpected', error),
    onRecoverableError: (error) => reportCheckoutFailure('unexpected', error),
  });
}

// First: the Trusted Types policies exist before any other module can reach a DOM sink.
import './trusted-types';
import { hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { primeMessages } from './i18n';
import { readPageData } from './page-data';
import { processorClientFor } from './processor-client';
import { reportCheckoutFailure, startCheckoutReporting } from './report';
import './styles.css';

// The server rendered the page from this data (src/http/checkout-page); hydrate the same markup.
const data = readPageData();
if (data) {
  // The shopper's catalogue, inlined by the server: useTranslator finds it without a request.
  primeMessages(data.messages);
  startCheckoutReporting(data.sentry, data.sessionId);
  // The card engine (and braintree-web's client and Hosted Fields) start now, beside hydration.
  if (data.view.kind === 'ready') void processorClientFor(data.view.session, data.flags).catch(() => undefined);
  hydrateRoot(document.getElementById('root')!, <App data={data} />, {
    onUncaughtError: (error) => reportCheckoutFailure('unexpected', error),
    onRecoverableError: (error) => reportCheckoutFailure('unexpected', error),
  });
}

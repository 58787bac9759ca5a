// First: the Trusted Types policies exist before any other module can reach a DOM sink.
import './trusted-types';
import type { EarlyHostedFields } from './braintree/early-hosted-fields';
import { readPageData } from './page-data';
import { processorPlan, type BraintreeClientConfig } from './processor-plan';
import './styles.css';

/**
 * The checkout page's first script, kept small: it reads the data the server inlined and loads
 * React's part (hydrate.tsx). With Braintree cards it first starts Hosted Fields in the
 * server-rendered slots — the shopper types into Braintree's frames, which need no React — and
 * loads React once they take typing (or failed, so the page can say so), so the bytes before the
 * shopper can type are this, braintree-web's client and hosted-fields, and the stylesheet.
 */

/** React loads after this long even if the frames are still loading, so Google Pay and any message are not held up. */
const FRAMES_WAIT_MS = 3_000;

const data = readPageData();
if (data) {
  const session = data.view.kind === 'ready' ? data.view.session : null;
  const plan = session ? processorPlan(session, data.flags) : null;
  // Its own small chunk, which the server preloads on Braintree card pages only.
  const early: Promise<EarlyHostedFields | null> | null =
    session && plan?.card === 'hosted-fields'
      ? import('./braintree/early-hosted-fields').then((m) => m.startHostedFieldsEarly((session.processor as unknown as BraintreeClientConfig).clientToken!))
      : null;
  const hydrate = () => {
    void import('./hydrate').then((app) => app.hydrate(data));
    if (plan?.card === 'hosted-fields') {
      // What React's side needs next, fetched beside it rather than after it.
      const ignore = () => undefined; // the same imports, made again where they are used, report failures
      import('./braintree/braintree-components').catch(ignore);
      import('./card-form/hosted-fields-engine').catch(ignore);
      if (plan.googlePay) import('braintree-web/google-payment').catch(ignore);
    }
  };
  if (early) {
    let started = false;
    const once = () => {
      if (!started) hydrate();
      started = true;
    };
    early.then((fields) => (fields ? fields.hostedFields : null)).then(once, once);
    setTimeout(once, FRAMES_WAIT_MS);
  } else hydrate();
}

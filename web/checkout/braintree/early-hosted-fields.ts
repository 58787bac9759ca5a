import type { HostedFieldsInstance } from './braintree-components';
import { frameStyles, hostedFieldsOption, renderedCardSlots } from './hosted-fields-setup';
import { cjs } from './module-exports';

/**
 * Braintree Hosted Fields started by the page's first script (main.tsx), before React is even
 * downloaded: with Braintree the shopper types into Braintree's frames, which need braintree-web's
 * `client` and `hosted-fields` but no React. The frames go into the slots the server rendered
 * (CardFields); React hydrates around them later and the card engine adopts this instance
 * (processor-client.ts → loadBraintreeComponents) instead of creating its own.
 */
export interface EarlyHostedFields {
  /** The token they were started with: only a page with the same token adopts them. */
  clientToken: string;
  /** braintree-web's client, also used for Google Pay, device data and 3-D Secure. */
  client: Promise<unknown>;
  /** The instance, once every frame has loaded and taken its settings. */
  hostedFields: Promise<HostedFieldsInstance>;
}

let early: EarlyHostedFields | null = null;

/** The value of the `<html>` attribute set once the frames take typing (styles.css shows the fields as ready). */
export const FRAMES_READY_ATTRIBUTE = 'data-card-frames';

/**
 * Starts `client.create` at once and Hosted Fields on it, into the server-rendered slots. Null
 * when the page has no card slots (the form is not rendered). Failures are not reported here: the
 * card engine that adopts the promises reports them and tells the shopper, as for its own.
 */
export function startHostedFieldsEarly(clientToken: string, doc: Document = document): EarlyHostedFields | null {
  const slots = renderedCardSlots(doc);
  if (!slots) return null;
  const client = import('braintree-web/client').then((m) => cjs(m).create({ authorization: clientToken }));
  const hostedFieldsModule = import('braintree-web/hosted-fields');
  const hostedFields = Promise.all([client, hostedFieldsModule]).then(
    ([c, m]) => cjs(m).create({ client: c, fields: hostedFieldsOption(slots), styles: frameStyles }) as Promise<HostedFieldsInstance>,
  );
  // Handled where they are adopted; a page that never adopts them has nothing to report.
  client.catch(() => undefined);
  hostedFields.then(
    () => doc.documentElement.setAttribute(FRAMES_READY_ATTRIBUTE, 'ready'),
    () => undefined,
  );
  early = { clientToken, client, hostedFields };
  return early;
}

/** The fields started early for this client token, if any. */
export function earlyHostedFields(clientToken: string): EarlyHostedFields | null {
  return early?.clientToken === clientToken ? early : null;
}

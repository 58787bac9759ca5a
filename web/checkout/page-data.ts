import type { PublicSession } from './api';
import type { CheckoutFlags } from './flags';
import type { Messages } from './i18n';
import type { BrowserReportingConfig } from '../telemetry/browser-reporting';

/** What the page shows first: every state renders on the server from this. */
export type InitialView =
  | { kind: 'not_found' }
  | { kind: 'expired'; session: PublicSession }
  | { kind: 'paid'; session: PublicSession }
  /** Open, its payment `processing`: the page says the payment is being confirmed, and updates itself. */
  | { kind: 'confirming'; session: PublicSession }
  | { kind: 'ready'; session: PublicSession };

/**
 * Everything the checkout page needs for its first paint, rendered into the HTML by the server
 * (src/http/checkout-page) and read back by the browser to hydrate the same markup: no round trip
 * for the session, the flags or the words.
 */
export interface CheckoutPageData {
  sessionId: string;
  /** `/c/:id/done`: the receipt. */
  receipt: boolean;
  view: InitialView;
  /** Evaluated by the server for this session (the targeting key). */
  flags: CheckoutFlags;
  /** The locale the server negotiated (session, then Accept-Language, then English: `negotiateLocale`). */
  locale: string;
  /**
   * The tag amounts and numbers are formatted with: the shopper's full locale where the browser's
   * `Accept-Language` gives one in that language (`es-MX` for `es`), else `locale` (`formattingLocale`).
   */
  formatLocale?: string;
  /**
   * That locale's catalogue, whole and precompiled to ASTs (`inlineMessages`: the page's runtime has
   * no parser); the browser hands it to `primeMessages` before hydrating, so it loads no catalogue.
   */
  messages: Messages;
  /** Error reporting, off when null. */
  sentry: BrowserReportingConfig;
}

/** The id of the inert JSON script element that carries the data. */
export const PAGE_DATA_ID = 'tillpoint-page';

/** The data as JSON that is safe inside a <script> element: no `<` can close it or open a comment. */
export function serializePageData(data: CheckoutPageData): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function readPageData(doc: Document = document): CheckoutPageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  try {
    return text ? (JSON.parse(text) as CheckoutPageData) : null;
  } catch {
    return null;
  }
}

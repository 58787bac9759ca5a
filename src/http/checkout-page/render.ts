import { createElement } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { text } from 'node:stream/consumers';
import { TillpointError } from '../../domain/shared/errors';
import type { Deps } from '../../domain/deps';
import { getCheckoutPage } from '../../domain/sessions/use-cases/get-checkout-page';
import { App } from '../../../web/checkout/App';
import { defaultCheckoutFlags } from '../../../web/checkout/flags';
import { formattingLocale, negotiateLocale } from '../../domain/shared/locale';
import { inlineMessages, loadMessages, translator, type Messages } from '../../../web/checkout/i18n';
import { PAGE_DATA_ID, serializePageData, type CheckoutPageData, type InitialView } from '../../../web/checkout/page-data';
import { processorPlan } from '../../../web/checkout/processor-plan';
import type { CheckoutClientConfig } from '../checkout-client-config';
import { publicCheckoutSessionView } from '../views/checkout-session';
import { noPreloads, type CheckoutAssets, type PagePreloads } from './assets';
import { checkoutPageFlags } from './page-flags';

/** Session ids are short and plain; anything else is not a session, without asking the database. */
const SESSION_ID = /^[A-Za-z0-9_]{1,100}$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The shopper's catalogue inlined as ASTs (the page's runtime has no parser), parsed once per locale
 * and kept: catalogues change only with a new build, which means a restart.
 */
const inlined = new Map<string, Messages>();
function inlinedMessages(messages: Messages): Messages {
  let ready = inlined.get(messages.locale);
  if (!ready) inlined.set(messages.locale, (ready = inlineMessages(messages)));
  return ready;
}

/**
 * The app's markup, rendered with the same components the browser hydrates. A part the page loads
 * on demand (`lazy`: the promotion code field, the stepper, the address form…) is waited for, so
 * even the first page that uses it after a start carries its markup instead of an empty boundary
 * the browser would fill alone (a hydration error). A part that cannot render here (one that
 * imports a stylesheet) is left to the browser, as React does.
 */
async function renderApp(data: CheckoutPageData): Promise<string> {
  const { prelude } = await prerenderToNodeStream(createElement(App, { data }), { onError: () => {} });
  return text(prelude);
}

export interface RenderedCheckoutPage {
  status: 200 | 404;
  /** The account whose page this is; null for an unknown session. */
  accountId: string | null;
  /** An embedded session's page: the origins that may frame it (none for any other page). */
  frameAncestors: string[];
  data: CheckoutPageData;
  preloads: PagePreloads;
  /** The whole document, without the head's asset markup and the nonce (see `checkoutDocument`). */
  title: string;
  /** `<html lang dir>`: the catalogue's own (`translator(messages).language` / `.dir`). */
  lang: string;
  dir: 'ltr' | 'rtl';
  app: string;
  noscript: string | null;
}

/**
 * Reads what the page shows (session, branding, flags, words) and renders it with the same React
 * components the browser hydrates. Every state renders here: ready, expired, already paid, a
 * payment being confirmed, the receipt and not found.
 */
export async function renderCheckoutPage(
  deps: Deps,
  options: { sessionId: string; receipt: boolean; clientConfig: CheckoutClientConfig; acceptLanguage?: string },
): Promise<RenderedCheckoutPage> {
  const { sessionId, receipt } = options;
  let view: InitialView = { kind: 'not_found' };
  let flags = defaultCheckoutFlags;
  let sessionLocale: string | null = null;
  let accountId: string | null = null;
  let frameAncestors: string[] = [];
  if (SESSION_ID.test(sessionId)) {
    try {
      const page = await getCheckoutPage(deps, { sessionId });
      const session = publicCheckoutSessionView(page, deps.publicUrl, options.acceptLanguage);
      sessionLocale = page.session.locale;
      accountId = page.session.accountId;
      if (page.session.uiMode === 'embedded') frameAncestors = page.account.embedAllowedOrigins ?? [];
      if (session.status === 'expired') view = { kind: 'expired', session };
      else if (session.status === 'complete') view = { kind: 'paid', session };
      else {
        // A payment under way (its outcome not recorded yet): "confirming your payment", never
        // the form inviting a second payment; the page reads the session until it is final.
        view = session.payment?.status === 'processing' ? { kind: 'confirming', session } : { kind: 'ready', session };
        // The receipt of a session still open shows the form, with the defaults as before.
        if (!receipt) flags = await checkoutPageFlags(deps, page.session);
      }
    } catch (error) {
      if (!(error instanceof TillpointError && error.code === 'resource_missing')) throw error;
    }
  }
  // The session's locale (unless `auto`), then the shopper's Accept-Language, then English: the
  // same negotiation as the session view the page reads (docs/localization.md).
  const messages = await loadMessages(negotiateLocale({ sessionLocale, acceptLanguage: options.acceptLanguage }));
  const formatLocale = formattingLocale(messages.locale, options.acceptLanguage);
  const t = translator(messages, formatLocale);
  const data: CheckoutPageData = {
    sessionId,
    receipt,
    view,
    flags,
    locale: messages.locale,
    formatLocale,
    messages: inlinedMessages(messages),
    sentry: options.clientConfig.sentry,
  };
  const merchant = 'session' in view ? view.session.merchant.name : null;
  let preloads = noPreloads;
  if (view.kind === 'ready') {
    const plan = processorPlan(view.session, flags);
    preloads =
      view.session.processor.name === 'braintree'
        ? plan.unavailable
          ? noPreloads
          : { builtinCard: false, braintree: { card: plan.card !== null, googlePay: plan.googlePay !== null } }
        : { builtinCard: plan.card !== null, braintree: null };
  }
  return {
    status: view.kind === 'not_found' ? 404 : 200,
    accountId,
    frameAncestors,
    data,
    preloads,
    title: merchant ? `${t('page.title')} · ${merchant}` : t('page.title'),
    lang: t.language,
    dir: t.dir,
    app: await renderApp(data),
    noscript: view.kind === 'ready' ? t('page.noscript') : null,
  };
}

/**
 * The HTML document: the rendered app, the asset markup of its configuration, and its data in an
 * inert JSON script element carrying the response's CSP nonce. The `<noscript>` block hides the
 * form a shopper without JavaScript could not use, and says why; the order stays above it.
 */
export function checkoutDocument(page: RenderedCheckoutPage, assets: CheckoutAssets, nonce: string): string {
  const noscript = page.noscript
    ? `<noscript><style nonce="${nonce}">.payment{display:none}</style><p class="noscript" role="status">${escapeHtml(page.noscript)}</p></noscript>`
    : '';
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(page.lang)}" dir="${page.dir}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(page.title)}</title>`,
    '<link rel="icon" href="data:,">',
    assets.head(page.preloads),
    '</head>',
    '<body>',
    `<div id="root">${page.app}</div>`,
    noscript,
    `<script type="application/json" id="${PAGE_DATA_ID}" nonce="${nonce}">${serializePageData(page.data)}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

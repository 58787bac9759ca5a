import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { z } from 'zod';
import type { Deps } from '../domain/deps';
import { TillpointError } from '../domain/shared/errors';
import { formattingLocale, negotiateLocale } from '../domain/shared/locale';
import { hostedInvoiceUrl, portalUrl } from '../domain/billing/snapshots';
import { addedCard, addPortalCard, openPortal, portalAddedCard, setPortalCancellation, useCardForSubscriptions } from '../domain/billing/use-cases/portal';
import type { Portal } from '../domain/billing/hosted-pages';
import { addHostedInvoiceCard, openHostedInvoice, payHostedInvoice } from '../domain/billing/use-cases/hosted-invoice';
import { errorMessageKey } from '../../web/checkout/i18n';
import { billingTranslator, type BillingTranslate } from '../../web/billing/i18n';
import { cardLabel, InvoicePage, MessagePage, PortalCancelPage, PortalPage, type Notice } from '../../web/billing/pages';
import { parseInput } from './errors';
import { sendCompressedHtml } from './checkout-page/index';
import { formFields } from './utf8-input';

/** The checkout page's look (its tokens), then the billing pages' own rules: one stylesheet, inlined. */
const stylesheet = ['../../web/checkout/tokens.css', '../../web/billing/billing.css']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n');

/** Tokens are long and plain; anything else is no page, without asking the database. */
const token = z.string().regex(/^(?:bpt|ih)_[A-Za-z0-9]{20,64}$/);
const pageParams = z.strictObject({ token });
const subscriptionParams = z.strictObject({ token, id: z.string().regex(/^sub_[A-Za-z0-9_]{1,100}$/) });

/** What a page's URL may carry: the notice of the action it comes back from, or the card session it comes back from. */
const notices = ['canceled', 'renewed', 'card_updated', 'card_not_saved', 'paid', 'not_payable', 'error'] as const;
type NoticeName = (typeof notices)[number];
const pageQuery = z.strictObject({
  notice: z.enum(notices).optional(),
  paid: z.coerce.number().int().min(0).max(1000).optional(),
  declined: z.coerce.number().int().min(0).max(1000).optional(),
  added: z
    .string()
    .regex(/^cs_[A-Za-z0-9_]{1,100}$/)
    .optional(),
});
const paymentMethod = z.string().regex(/^pm_[A-Za-z0-9_]{1,100}$/);
const methodBody = z.strictObject({ payment_method: paymentMethod });
const payBody = z.strictObject({ payment_method: paymentMethod, use_for_subscription: z.literal('yes').optional() });
const emptyBody = z.strictObject({});

/**
 * The billing pages' CSP: nothing but their own inline stylesheet (by nonce), images of the
 * merchant's logo, and forms posting to themselves. No script at all.
 */
function policy(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, 'img-src https: data:', "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join(
    '; ',
  );
}

async function sendPage(request: FastifyRequest, reply: FastifyReply, t: BillingTranslate, title: string, page: ReactElement, status = 200) {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html><html lang="${t.language}" dir="${t.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${stylesheet}</style></head><body>${renderToStaticMarkup(page)}</body></html>`;
  reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('content-security-policy', policy(nonce))
    // The page's URL is its secret: no link or image it shows may learn it.
    .header('referrer-policy', 'no-referrer');
  return sendCompressedHtml(request, reply, html);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function acceptLanguage(request: FastifyRequest): string | null {
  const header = request.headers['accept-language'];
  return typeof header === 'string' ? header : null;
}

async function translatorFor(request: FastifyRequest, sessionLocale: string | null): Promise<BillingTranslate> {
  const locale = negotiateLocale({ sessionLocale, acceptLanguage: acceptLanguage(request) });
  return billingTranslator(locale, formattingLocale(locale, acceptLanguage(request)));
}

/** An unknown or expired page, in the customer's browser's language. */
async function sendMissing(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (!(error instanceof TillpointError) || (error.code !== 'resource_missing' && error.code !== 'billing_portal_session_expired') || error.param !== 'token')
    throw error;
  const t = await translatorFor(request, null);
  const expired = error.code === 'billing_portal_session_expired';
  const heading = t(expired ? 'expired.heading' : 'missing.heading');
  return sendPage(
    request,
    reply,
    t,
    heading,
    createElement(MessagePage, { t, account: null, heading, body: t(expired ? 'expired.body' : 'missing.body') }),
    expired ? 410 : 404,
  );
}

/** The notice a page shows for `?notice=`, in its language. */
function noticeOf(t: BillingTranslate, query: z.output<typeof pageQuery>, portal: Portal | null): Notice | null {
  const name: NoticeName | undefined = query.notice;
  if (!name) return null;
  if (name === 'card_updated') {
    const card = portal?.methods.find((method) => method.id === portal.defaultMethodId);
    const parts = [card ? t('notice.cardUpdated', { card: cardLabel(t, card) }) : null];
    if (query.paid) parts.push(t('notice.owedPaid', { count: query.paid }));
    if (query.declined) parts.push(t('notice.owedDeclined', { count: query.declined }));
    return { text: parts.filter(Boolean).join(' '), tone: query.declined ? 'error' : 'ok' };
  }
  const simple: Record<Exclude<NoticeName, 'card_updated'>, Notice> = {
    canceled: { text: t('notice.canceled'), tone: 'ok' },
    renewed: { text: t('notice.renewed'), tone: 'ok' },
    card_not_saved: { text: t('notice.cardNotSaved'), tone: 'error' },
    paid: { text: t('notice.paid'), tone: 'ok' },
    not_payable: { text: t('error.notPayable'), tone: 'error' },
    error: { text: t('error.generic'), tone: 'error' },
  };
  return simple[name];
}

/** A refusal of an action by the customer's hand: shown as a notice on the page, never as JSON. */
function actionNotice(error: unknown): NoticeName {
  if (!(error instanceof TillpointError)) throw error;
  if (error.code === 'billing_portal_session_expired' || (error.code === 'resource_missing' && error.param === 'token')) throw error;
  return error.code === 'invoice_not_payable' || error.code === 'subscription_canceled' ? 'not_payable' : 'error';
}

/**
 * The customer portal (`/p/:token`) and the hosted invoice page (`/i/:token`), docs/billing.md:
 * pages rendered on the server in the customer's language, plain forms that post and come back
 * (303) with a notice. A new card is entered on the checkout page (a setup session) that comes back
 * with `?added=`.
 */
export async function billingPages(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, raw, done) => {
    try {
      done(null, formFields(raw as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const portalPath = (t: string) => new URL(portalUrl({ token: t }, deps.publicUrl)).pathname;
  const invoicePath = (t: string) => new URL(hostedInvoiceUrl({ hostedToken: t }, deps.publicUrl)).pathname;
  const back = (reply: FastifyReply, path: string, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return reply.redirect(search ? `${path}?${search}` : path, 303);
  };

  app.get('/p/:token', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    const query = parseInput(pageQuery, request.query ?? {});
    const path = portalPath(params.token);
    try {
      if (query.added) {
        // Back from the card session: bill the subscriptions to the card it saved, pay what is owed.
        const card = await portalAddedCard(deps, { token: params.token, checkoutSessionId: query.added });
        if (!card) return back(reply, path, { notice: 'card_not_saved' });
        const change = await useCardForSubscriptions(deps, { token: params.token, methodId: card.id });
        return back(reply, path, { notice: 'card_updated', paid: change.paid, declined: change.declined });
      }
      const portal = await openPortal(deps, params.token);
      const t = await translatorFor(request, portal.session.locale);
      const page = createElement(PortalPage, {
        t,
        portal,
        path,
        notice: noticeOf(t, query, portal),
        invoiceUrl: (invoice) => hostedInvoiceUrl(invoice, deps.publicUrl),
      });
      return sendPage(request, reply, t, t('portal.title'), page);
    } catch (error) {
      return sendMissing(request, reply, error);
    }
  });

  app.get('/p/:token/subscriptions/:id/cancel', async (request, reply) => {
    const params = parseInput(subscriptionParams, request.params);
    parseInput(emptyBody, request.query ?? {});
    try {
      const portal = await openPortal(deps, params.token);
      const entry = portal.subscriptions.find((s) => s.subscription.id === params.id);
      const path = portalPath(params.token);
      if (!entry) return back(reply, path, { notice: 'not_payable' });
      const t = await translatorFor(request, portal.session.locale);
      const page = createElement(PortalCancelPage, { t, portal, entry, path });
      return sendPage(request, reply, t, t('portal.cancelConfirm.heading', { product: entry.productName }), page);
    } catch (error) {
      return sendMissing(request, reply, error);
    }
  });

  for (const [action, cancel] of [
    ['cancel', true],
    ['renew', false],
  ] as const) {
    app.post(`/p/:token/subscriptions/:id/${action}`, async (request, reply) => {
      const params = parseInput(subscriptionParams, request.params);
      parseInput(emptyBody, request.body ?? {});
      const path = portalPath(params.token);
      try {
        await setPortalCancellation(deps, { token: params.token, subscriptionId: params.id, cancel });
        return back(reply, path, { notice: cancel ? 'canceled' : 'renewed' });
      } catch (error) {
        return sendOrBack(request, reply, error, path);
      }
    });
  }

  app.post('/p/:token/card', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    const body = parseInput(methodBody, request.body ?? {});
    const path = portalPath(params.token);
    try {
      const change = await useCardForSubscriptions(deps, { token: params.token, methodId: body.payment_method });
      return back(reply, path, { notice: 'card_updated', paid: change.paid, declined: change.declined });
    } catch (error) {
      return sendOrBack(request, reply, error, path);
    }
  });

  app.post('/p/:token/cards/new', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    parseInput(emptyBody, request.body ?? {});
    try {
      const { url } = await addPortalCard(deps, { token: params.token, portalUrl: portalUrl({ token: params.token }, deps.publicUrl) });
      return reply.redirect(url, 303);
    } catch (error) {
      return sendOrBack(request, reply, error, portalPath(params.token));
    }
  });

  app.get('/i/:token', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    const query = parseInput(pageQuery, request.query ?? {});
    try {
      const hosted = await openHostedInvoice(deps, params.token);
      const t = await translatorFor(request, null);
      let notice = noticeOf(t, query, null);
      let chosenMethodId: string | null = null;
      if (query.added) {
        // Back from the card session: the card it saved is chosen; the customer presses Pay.
        const { invoice } = hosted;
        const card = await addedCard(deps, {
          scope: { accountId: invoice.accountId, mode: invoice.mode },
          customerId: invoice.customerId,
          checkoutSessionId: query.added,
        });
        chosenMethodId = card?.id ?? null;
        notice = card ? { text: t('notice.cardSaved'), tone: 'ok' } : { text: t('notice.cardNotSaved'), tone: 'error' };
      }
      const page = createElement(InvoicePage, { t, hosted, path: invoicePath(params.token), notice, chosenMethodId });
      return sendPage(request, reply, t, t('invoice.number', { number: hosted.invoice.id }), page);
    } catch (error) {
      return sendMissing(request, reply, error);
    }
  });

  app.post('/i/:token/pay', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    const body = parseInput(payBody, request.body ?? {});
    const path = invoicePath(params.token);
    try {
      await payHostedInvoice(deps, { token: params.token, methodId: body.payment_method, useForSubscription: body.use_for_subscription === 'yes' });
      return back(reply, path, { notice: 'paid' });
    } catch (error) {
      if (!(error instanceof TillpointError) || !['card_declined', 'processor_unavailable', 'processor_timeout'].includes(error.code)) {
        return sendOrBack(request, reply, error, path);
      }
      // Declined: the page again, saying why in the shopper's words, with the same card chosen.
      const hosted = await openHostedInvoice(deps, params.token);
      const t = await translatorFor(request, null);
      const key = errorMessageKey(error.code, error.declineCode);
      const page = createElement(InvoicePage, { t, hosted, path, notice: { text: t.checkout(key), tone: 'error' }, chosenMethodId: body.payment_method });
      return sendPage(request, reply, t, t('invoice.number', { number: hosted.invoice.id }), page, error.status);
    }
  });

  app.post('/i/:token/cards/new', async (request, reply) => {
    const params = parseInput(pageParams, request.params);
    parseInput(emptyBody, request.body ?? {});
    try {
      const locale = negotiateLocale({ sessionLocale: null, acceptLanguage: acceptLanguage(request) });
      const { url } = await addHostedInvoiceCard(deps, {
        token: params.token,
        pageUrl: hostedInvoiceUrl({ hostedToken: params.token }, deps.publicUrl),
        locale,
      });
      return reply.redirect(url, 303);
    } catch (error) {
      return sendOrBack(request, reply, error, invoicePath(params.token));
    }
  });

  /** An action refused: an unknown or expired page is said so; anything else comes back with a notice. */
  function sendOrBack(request: FastifyRequest, reply: FastifyReply, error: unknown, path: string) {
    if (error instanceof TillpointError && error.param === 'token') return sendMissing(request, reply, error);
    return back(reply, path, { notice: actionNotice(error) });
  }
}

import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { acceptedEncoding, compress } from '../compression';
import { parseInput } from '../errors';
import { checkoutPagePolicy, reportingEndpoints, type CheckoutClientConfig } from '../checkout-client-config';
import { loadCheckoutAssets, type CheckoutAssets } from './assets';
import { checkoutDocument, renderCheckoutPage } from './render';

/**
 * Sends dynamic HTML compressed for the browser that asked: brotli, else gzip, else as is. Assets
 * are compressed at build time instead (vite.config.ts); a page is a few KB and differs per
 * session, so a fast brotli level per response costs well under a millisecond.
 */
export async function sendCompressedHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const encoding = acceptedEncoding(request);
  reply.type('text/html; charset=utf-8').header('vary', 'accept-encoding');
  if (!encoding) return reply.send(html);
  return reply.header('content-encoding', encoding).send(await compress(Buffer.from(html), encoding, 'quick'));
}

/**
 * What the page's URL may carry: `embedded`, the session's client secret, when `/js/embed.js` frames
 * it (embed-script.ts). Anything else is refused by name, as on every route.
 */
const pageQuery = z.strictObject({ embedded: z.string().max(300).optional() });

/**
 * `/c/:id` and `/c/:id/done`: the checkout page, rendered on the server (React, the same components
 * the browser hydrates) with its data inlined, a fresh CSP nonce per response, and the asset
 * markup of its configuration (the test processor's card form, or Braintree's components).
 *
 * `secureHead` post-processes each configuration's head markup once (Subresource Integrity and the
 * integrity import map, page-integrity-monitor.ts); `policy` gives the CSP for a response's nonce.
 * The page's headers and head do not depend on the session, only on its configuration, so the
 * integrity monitor's fingerprint of an unknown session's page stays stable (nonces blanked).
 */
export function registerCheckoutPage(
  app: FastifyInstance,
  options: {
    deps: Deps;
    webRoot: string;
    clientConfig?: CheckoutClientConfig;
    secureHead?: (html: string) => string;
    policy?: (nonce: string, frameAncestors?: readonly string[]) => string;
    /** An account's page is being sent (for the page-integrity monitor's first baseline); must not throw. */
    onServed?: (accountId: string) => void;
  },
) {
  const clientConfig = options.clientConfig ?? { sentry: null };
  const policy = options.policy ?? ((nonce: string, frameAncestors?: readonly string[]) => checkoutPagePolicy(clientConfig, { nonce, frameAncestors }));
  let assets: CheckoutAssets | null = null;
  const send = async (request: FastifyRequest, reply: FastifyReply, receipt: boolean) => {
    parseInput(pageQuery, request.query ?? {});
    assets ??= loadCheckoutAssets(options.webRoot, options.secureHead);
    if (!assets) {
      return reply.status(503).type('text/plain').send('The checkout page is not built yet: run `npm run build`.');
    }
    const { id } = request.params as { id: string };
    const page = await renderCheckoutPage(options.deps, {
      sessionId: String(id),
      receipt,
      clientConfig,
      acceptLanguage: request.headers['accept-language'],
    });
    const nonce = randomBytes(16).toString('base64');
    reply
      .status(page.status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', policy(nonce, page.frameAncestors))
      .header('reporting-endpoints', reportingEndpoints);
    if (page.accountId) options.onServed?.(page.accountId);
    return sendCompressedHtml(request, reply, checkoutDocument(page, assets, nonce));
  };
  app.get('/c/:id', (request, reply) => send(request, reply, false));
  app.get('/c/:id/done', (request, reply) => send(request, reply, true));
}

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { RateLimitedError } from '../../domain/api-guards/rules';
import { openPaymentLink } from '../../domain/sessions/use-cases/open-payment-link';
import { parseInput } from '../errors';

/**
 * Visits of payment links per client address and minute (each instance counts its own). Enough for
 * many shoppers behind one address (a shop's or a carrier's NAT); far from a flood of sessions.
 */
export const PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE = 60;

/** The cookie that brings a returning browser back to the session it opened, scoped to the link's path. */
export const PAYMENT_LINK_COOKIE = 'tp_link_session';

const campaignText = z.string().max(500).optional();
/**
 * What a link's URL may carry: the campaign parameters links are shared with (as Stripe's payment
 * links take) and the click ids ad platforms add on their own. They are accepted and not used;
 * anything else is refused by name.
 */
const visitQuery = z.strictObject({
  utm_source: campaignText,
  utm_medium: campaignText,
  utm_campaign: campaignText,
  utm_term: campaignText,
  utm_content: campaignText,
  fbclid: campaignText,
  gclid: campaignText,
});

const sessionIdPattern = /^cs_[A-Za-z0-9]{1,64}$/;

/** The session id this browser was given for links, from its Cookie header (the link's path scopes it). */
function returningSession(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== PAYMENT_LINK_COOKIE) continue;
    const value = pair.slice(equals + 1).trim();
    if (sessionIdPattern.test(value)) return value;
  }
  return null;
}

function rememberSession(reply: FastifyReply, options: { slug: string; sessionId: string; expiresAt: Date; now: Date; secure: boolean }) {
  const maxAge = Math.max(0, Math.floor((options.expiresAt.getTime() - options.now.getTime()) / 1000));
  const attributes = [`Path=/l/${options.slug}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Lax', ...(options.secure ? ['Secure'] : [])];
  reply.header('set-cookie', `${PAYMENT_LINK_COOKIE}=${options.sessionId}; ${attributes.join('; ')}`);
}

/**
 * `GET /l/:slug`: a payment link's visit. Redirects to the session this browser opened for the link
 * while it is open (a cookie on the link's path holds its id), else to a fresh one. Limited per
 * client address (`429 rate_limited` with `Retry-After`); unknown query parameters are refused.
 */
export async function paymentLinkVisitRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const secure = deps.publicUrl.startsWith('https:');

  app.get(
    '/l/:slug',
    { config: { rateLimit: { max: PAYMENT_LINK_VISITS_PER_IP_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => request.ip } } },
    async (request, reply) => {
      parseInput(visitQuery, request.query ?? {});
      // Found by this exact slug, so it is the link's own (letters and digits) when the link exists.
      const slug = String((request.params as { slug: string }).slug).slice(0, 64);
      const { session, reused } = await openPaymentLink(deps, { slug, returning: returningSession(request) });
      if (!reused && /^[0-9A-Za-z]+$/.test(slug)) {
        rememberSession(reply, { slug, sessionId: session.id, expiresAt: session.expiresAt, now: deps.clock.now(), secure });
      }
      return reply.header('cache-control', 'no-store').redirect(`/c/${session.id}`, 303);
    },
  );
}

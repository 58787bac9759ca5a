import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { maskEmail } from '../../domain/sessions/customer-email';
import { MAX_SEARCH_TEXT } from '../../domain/search/search-terms';
import { searchEverywhere } from '../../domain/search/use-cases/search-everywhere';
import { unixTime } from '../views/resource';
import { seesEmails } from '../views/payment';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, scopeParams } from './mode-endpoints';

/** The search box's one endpoint: every kind the member may read, newest hits of each first. */
export function searchEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/search`,
        tag: 'Dashboard: search',
        summary:
          'Payments, checkout sessions, refunds, payment links, customers and disputes matching an id prefix, email, last4, amount, metadata value or client_reference_id',
        params: scopeParams,
        query: z.strictObject({
          q: z.string().max(MAX_SEARCH_TEXT),
          limit: z.coerce.number().int().min(1).max(20).default(10),
        }),
        // Every role may search; each kind is searched only for roles that may read it.
        permission: 'overview.read',
      },
      async ({ query, scope, member }) => {
        const hits = await searchEverywhere(deps, { scope, text: query.q, role: member.membership.role, limitPerKind: query.limit });
        const clear = seesEmails(member.membership);
        return {
          object: 'list',
          data: hits.map((hit) => ({
            kind: hit.kind,
            id: hit.id,
            created: unixTime(hit.createdAt),
            amount: hit.amount,
            currency: hit.currency,
            status: hit.status,
            customer_email: clear ? hit.email : maskEmail(hit.email),
            detail: hit.detail,
          })),
        };
      },
    ),
  ];
}

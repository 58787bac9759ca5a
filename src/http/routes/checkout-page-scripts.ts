import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { readCheckoutPageSecurity } from '../../domain/checkout-page/use-cases/read-checkout-page-security';
import type { CheckoutPageIntegrity } from '../checkout-page/page-integrity-monitor';
import { defineRoute } from '../define-route';
import { TillpointError } from '../../domain/shared/errors';
import { checkoutPageScriptListSchema } from '../response-schemas';
import { scopeOf } from '../merchant-auth';
import { inventoryScriptView } from '../views/checkout-page-security';

/** What the inventory routes need from the server: the page's integrity and its CSP as served. */
export interface PageSecurity {
  pageIntegrity: CheckoutPageIntegrity;
  pagePolicy: () => string;
}

/** The inventory, in the order the build and the CSP give it, with the account's notes. */
export async function inventoryFor(deps: Deps, accountId: string, security: PageSecurity) {
  const { notes } = await readCheckoutPageSecurity(deps, { accountId });
  const byScript = new Map(notes.map((note) => [note.scriptId, note]));
  return security.pageIntegrity.inventory().map((script) => inventoryScriptView(script, deps.publicUrl, byScript.get(script.id)));
}

const scriptId = z.string().regex(/^[A-Za-z0-9_.:/-]{1,200}$/, 'must be a script id from the inventory');

/** `GET /v1/checkout_page/scripts`: the checkout page's script inventory (PCI DSS 6.4.3). */
export async function checkoutPageScriptRoutes(app: FastifyInstance, { deps, security }: { deps: Deps; security: PageSecurity }) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/checkout_page/scripts',
      resource: 'checkout_page',
      tag: 'Checkout page',
      summary: 'Every script the checkout page can load, with its SHA-384, the set-ups that load it and why it is there',
      response: checkoutPageScriptListSchema,
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(100), starting_after: scriptId.optional() }),
    },
    async ({ query, request }) => {
      const scripts = await inventoryFor(deps, scopeOf(request).accountId, security);
      const after = query.starting_after ? scripts.findIndex((script) => script.id === query.starting_after) : -1;
      // An id the inventory does not hold (an older build's chunk) must not restart the list: a
      // client paging through it would loop.
      if (query.starting_after && after < 0) {
        throw new TillpointError('parameter_invalid', `No script ${query.starting_after} in this build's inventory`, {
          param: 'starting_after',
        });
      }
      const start = after + 1;
      const data = scripts.slice(start, start + query.limit);
      return { object: 'list' as const, url: '/v1/checkout_page/scripts', has_more: start + query.limit < scripts.length, data };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { Deps } from '../domain/ports';
import { recordAuditEntry } from '../domain/use-cases/record-audit-entry';
import { keyActorOf, scopeOf } from './merchant-auth';

/**
 * Every write a secret key can make, and the audit-log action it records (design.md §6: every write by
 * a user or a key goes to the audit log). Checkout-session writes are absent because their use cases
 * record the line in their own transaction; the rest call a processor or a separate store, so the
 * line is written once the write has answered with success (docs/decisions.md, "Dashboard").
 */
export const auditedApiWrites: Readonly<Record<string, string>> = {
  'POST /v1/payments/:id/capture': 'payment.capture',
  'POST /v1/payments/:id/cancel': 'payment.cancel',
  'POST /v1/refunds': 'refund.create',
  'POST /v1/products': 'product.create',
  'POST /v1/payment_links': 'payment_link.create',
  'POST /v1/payment_links/:id': 'payment_link.update',
  'POST /v1/webhook_endpoints': 'webhook_endpoint.create',
  'POST /v1/webhook_endpoints/:id': 'webhook_endpoint.update',
  'DELETE /v1/webhook_endpoints/:id': 'webhook_endpoint.delete',
  'POST /v1/webhook_endpoints/:id/roll_secret': 'webhook_endpoint.roll_secret',
  'POST /v1/webhook_endpoints/:id/deliveries/:delivery_id/resend': 'webhook_delivery.resend',
  'POST /v1/flags': 'flag.create',
  'POST /v1/flags/:key': 'flag.update',
  'POST /v1/experiments': 'experiment.create',
  'POST /v1/experiments/:id': 'experiment.update',
};

/** Writes in the merchant API whose use cases audit themselves, inside their transaction. */
export const selfAuditedApiWrites: readonly string[] = ['POST /v1/checkout/sessions', 'POST /v1/checkout/sessions/:id/expire'];

/** Records a successful key write in the audit log; replays of an Idempotency-Key record nothing new. */
export function auditApiWrites(app: FastifyInstance, deps: Deps): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const action = auditedApiWrites[`${request.method} ${request.routeOptions.url}`];
    if (!action || reply.statusCode >= 300 || reply.getHeader('idempotent-replayed')) return payload;
    const params = (request.params ?? {}) as Record<string, string>;
    let target: string | null = params.id ?? params.key ?? null;
    if (typeof payload === 'string') {
      try {
        target = (JSON.parse(payload) as { id?: string }).id ?? target;
      } catch {
        // not JSON: keep the path's id
      }
    }
    await recordAuditEntry(deps, { ...scopeOf(request), actor: keyActorOf(request), action, target });
    return payload;
  });
}

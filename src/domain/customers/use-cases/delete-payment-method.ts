import { auditWrite } from '../../team/audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { SavedPaymentMethod } from '../entities';
import { paymentMethodEvent, removeAtProcessor } from '../saved-payment-methods';

/**
 * Deletes a saved payment method: first at the processor (outside any transaction), then here with
 * its `payment_method.detached` event. An unreachable processor changes nothing.
 */
export async function deletePaymentMethod(deps: Deps, options: { scope: Scope; id: string; actor: Actor | null }): Promise<SavedPaymentMethod> {
  const method = await deps.store.read((reader) => reader.savedPaymentMethods.get(options.scope, options.id));
  if (!method) throw resourceMissing('payment method', options.id);
  await removeAtProcessorOrRefuse(deps, options.scope, [method]);
  await deps.store.transaction(async (tx) => {
    if (!(await tx.savedPaymentMethods.delete(options.scope, method.id))) return;
    const now = deps.clock.now();
    await tx.events.insert(paymentMethodEvent(method, 'payment_method.detached', now));
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'payment_method.delete', target: method.id, at: now });
  });
  return method;
}

/** Removes each method at its processor; `processor_unavailable` when the processor cannot be reached. */
export async function removeAtProcessorOrRefuse(deps: Deps, scope: Scope, methods: SavedPaymentMethod[]): Promise<void> {
  if (methods.length === 0) return;
  const processor = await deps.processors.forScope(scope);
  try {
    for (const method of methods) await removeAtProcessor(processor, method);
  } catch {
    throw new TillpointError('processor_unavailable', 'The payment processor could not delete the saved payment method; try again shortly');
  }
}

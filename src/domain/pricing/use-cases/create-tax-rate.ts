import { auditWrite } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { TaxRate } from '../entities';
import { buildTaxRate, type NewTaxRate } from '../rules';

/** Creates a tax rate that line items name in `tax_rates`. */
export async function createTaxRate(deps: Deps, options: { scope: Scope; input: NewTaxRate; actor: Actor | null }): Promise<TaxRate> {
  const taxRate = buildTaxRate(options.input, options.scope, deps.clock.now());
  await deps.store.transaction(async (tx) => {
    await tx.taxRates.insert(taxRate);
    await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'tax_rate.create', target: taxRate.id, at: taxRate.createdAt });
  });
  return taxRate;
}

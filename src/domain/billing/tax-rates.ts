import type { UnitOfWork } from '../deps';
import { TillpointError } from '../shared/errors';
import type { Scope } from '../shared/scope';
import type { AppliedTaxRate } from '../pricing/entities';
import { appliedTaxRate } from '../pricing/rules';

/** The most tax rates `default_tax_rates` takes through the API (a line item's `tax_rates` takes as many). */
export const MAX_DEFAULT_TAX_RATES = 5;

/**
 * The terms of a subscription's `default_tax_rates`, read by id when an invoice is made: a rate's
 * percentage and inclusiveness never change, and a rate archived since still applies to the
 * subscriptions that have it, as Stripe's do.
 */
export async function taxRateTerms(tx: UnitOfWork, scope: Scope, ids: readonly string[]): Promise<AppliedTaxRate[]> {
  const rates = await Promise.all(ids.map((id) => tx.taxRates.get(scope, id)));
  return rates.flatMap((rate) => (rate ? [appliedTaxRate(rate)] : []));
}

/**
 * `default_tax_rates` as the API gives them, checked as a line item's `tax_rates` are: at most
 * five, each a rate of the scope (`404 resource_missing`) and active (`400 parameter_invalid`), none
 * twice; each refusal names `default_tax_rates[i]`.
 */
export async function checkedTaxRates(tx: UnitOfWork, scope: Scope, ids: readonly string[]): Promise<AppliedTaxRate[]> {
  if (ids.length > MAX_DEFAULT_TAX_RATES) {
    throw new TillpointError('parameter_invalid', `default_tax_rates takes at most ${MAX_DEFAULT_TAX_RATES} tax rates`, { param: 'default_tax_rates' });
  }
  const checked: AppliedTaxRate[] = [];
  for (const [i, id] of ids.entries()) {
    const param = `default_tax_rates[${i}]`;
    if (ids.indexOf(id) !== i) throw new TillpointError('parameter_invalid', `Tax rate '${id}' is given twice`, { param });
    const rate = await tx.taxRates.get(scope, id);
    if (!rate) throw new TillpointError('resource_missing', `No such tax rate: '${id}'`, { param });
    if (!rate.active) throw new TillpointError('parameter_invalid', `Tax rate '${id}' is not active`, { param });
    checked.push(appliedTaxRate(rate));
  }
  return checked;
}

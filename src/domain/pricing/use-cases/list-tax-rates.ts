import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { TaxRate } from '../entities';

/** One page of the scope's tax rates, newest first. */
export async function listTaxRates(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<TaxRate>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.taxRates.list(options.scope, page)));
}

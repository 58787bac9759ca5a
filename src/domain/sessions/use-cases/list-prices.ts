import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Price } from '../entities';
import type { PriceFilter } from '../ports';

/** One page of the scope's prices, newest first: of one product, active or archived, one-time or recurring. */
export async function listPrices(deps: Deps, options: { scope: Scope; page: PageRequest; filter?: PriceFilter }): Promise<Page<Price>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.prices.list(options.scope, { ...page, ...options.filter })));
}

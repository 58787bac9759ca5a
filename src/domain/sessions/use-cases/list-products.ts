import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Product, Price } from '../entities';

/** One page of the scope's products, newest first, each with its default price. */
export async function listProducts(deps: Deps, options: { scope: Scope; page: PageRequest }): Promise<Page<{ product: Product; defaultPrice: Price | null }>> {
  return readPage(options.page, (page) =>
    deps.store.readReplica(async (reader) => {
      const products = await reader.products.list(options.scope, page);
      const withPrices = [];
      for (const product of products) {
        const defaultPrice = product.defaultPriceId ? await reader.prices.get(options.scope, product.defaultPriceId) : null;
        withPrices.push({ product, defaultPrice });
      }
      return withPrices;
    }),
  );
}

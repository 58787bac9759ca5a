import { auditWrite } from '../../team/audit';
import { currencyRule, MAX_AMOUNT } from '../../shared/currency';
import { TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import type { Product, Price } from '../entities';

export interface NewProduct {
  name: string;
  description?: string | null;
  active?: boolean;
  /** Creates the product's default price with it, as Stripe's `default_price_data`. */
  defaultPrice?: { currency: string; unitAmount: number };
}

/** Creates a product and, when given, its default price. */
export async function createProduct(
  deps: Deps,
  options: { scope: Scope; input: NewProduct; actor: Actor | null },
): Promise<{ product: Product; defaultPrice: Price | null }> {
  const { input, scope } = options;
  const name = input.name.trim();
  if (name.length < 1 || name.length > 250) {
    throw new TillpointError('parameter_invalid', 'name must be 1 to 250 characters', { param: 'name' });
  }
  const now = deps.clock.now();
  const product: Product = {
    id: newId('prod', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    name,
    description: input.description?.trim() || null,
    active: input.active ?? true,
    defaultPriceId: null,
    createdAt: now,
    updatedAt: now,
  };
  let defaultPrice: Price | null = null;
  if (input.defaultPrice) {
    const rule = currencyRule(input.defaultPrice.currency);
    if (!rule) {
      throw new TillpointError('currency_not_supported', `Currency '${input.defaultPrice.currency}' is not supported`, {
        param: 'default_price_data[currency]',
      });
    }
    if (input.defaultPrice.unitAmount > MAX_AMOUNT) {
      throw new TillpointError('amount_too_large', `unit_amount must be at most ${MAX_AMOUNT}`, {
        param: 'default_price_data[unit_amount]',
      });
    }
    defaultPrice = {
      id: newId('price', 16),
      accountId: scope.accountId,
      mode: scope.mode,
      productId: product.id,
      currency: rule.code,
      unitAmount: input.defaultPrice.unitAmount,
      active: true,
      recurringInterval: null,
      recurringIntervalCount: null,
      nickname: null,
      metadata: {},
      createdAt: now,
    };
    product.defaultPriceId = defaultPrice.id;
  }
  await deps.store.transaction(async (tx) => {
    await tx.products.insert(product);
    if (defaultPrice) await tx.prices.insert(defaultPrice);
    await auditWrite(tx, { scope, actor: options.actor, action: 'product.create', target: product.id, at: now });
  });
  return { product, defaultPrice };
}

import type { UnitOfWork } from '../deps';
import type { Price } from '../sessions/entities';

/** An invoice line's words: the quantity and the product's name ("2 × Coffee club"). */
export async function lineDescription(tx: UnitOfWork, price: Price, quantity: number): Promise<string> {
  const product = await tx.products.get(price, price.productId);
  return `${quantity} × ${product?.name ?? price.productId}`;
}

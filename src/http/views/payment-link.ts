import { resourceView } from './resource';
import type { PaymentLink } from '../../domain/sessions/entities';

export function paymentLinkView(link: PaymentLink, publicUrl: string) {
  const items = link.lineItems.map((item) => ({
    price: item.priceId ?? null,
    name: item.name,
    unit_amount: item.unitAmount,
    quantity: item.quantity,
    amount: item.unitAmount * item.quantity,
  }));
  return resourceView('payment_link', link, {
    active: link.active,
    url: `${publicUrl}/l/${link.slug}`,
    currency: link.currency.toLowerCase(),
    line_items: items,
    amount_total: items.reduce((sum, item) => sum + item.amount, 0),
  });
}

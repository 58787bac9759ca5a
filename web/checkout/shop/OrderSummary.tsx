import { lazy, Suspense } from 'react';
import type { PublicSession } from '../api';
import type { Translate } from '../i18n';
import { formatMoney, formatPercentage } from '../format';
import { subscriptionWording } from './subscription-terms';

// Each option's code loads only for a session that uses it (the first load's size budget).
const PromotionCode = lazy(() => import('./PromotionCode'));
const ShippingChoice = lazy(() => import('./ShippingChoice'));
const QuantityStepper = lazy(() => import('./QuantityStepper'));

/**
 * The order: items (a stepper for an adjustable quantity), then the breakdown the server answered
 * (`amount_subtotal`, `total_details`): the page shows figures, it never computes one. Promotion
 * code and shipping choice below it when the session offers them. `locked`: a payment is under way.
 */
export function OrderSummary({
  session,
  t,
  locked,
  onSession,
}: {
  session: PublicSession;
  t: Translate;
  locked: boolean;
  onSession: (session: PublicSession) => void;
}) {
  const money = (amount: number) => formatMoney(amount, session.currency, t.lang);
  // A tax by its name and rate ("VAT 20%"), the percentage as the shopper's locale writes it (up to 4 decimals, docs/pricing.md).
  const taxName = (rate: { display_name: string; percentage: number }) => `${rate.display_name} ${formatPercentage(rate.percentage, t.lang)}`;
  const details = session.total_details;
  const breakdown =
    details &&
    (details.amount_discount > 0 || details.amount_shipping > 0 || details.amount_tax > 0 || session.shipping_options?.length || session.allow_promotion_codes);
  const discountLabel = session.discount?.code ? t('summary.discountCode', { code: session.discount.code }) : t('summary.discount');
  // A subscription: what is due today (nothing during a trial), then what renews and how often.
  const renewal = session.subscription && subscriptionWording(session.subscription, money(session.subscription.amount), t);
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t('summary.heading')}</h2>
      <p className="item-count">{t('summary.items', { count: session.line_items.reduce((sum, item) => sum + item.quantity, 0) })}</p>
      <ul className="line-items">
        {session.line_items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
          <li key={i}>
            <span className="item-name">{item.name}</span>
            {/* An adjustable quantity reads as text until the stepper's module has loaded (on the server, then in the browser). */}
            {item.adjustable_quantity?.enabled ? (
              <Suspense fallback={<span className="item-qty">{t('summary.quantity', { quantity: item.quantity })}</span>}>
                <QuantityStepper session={session} index={i} t={t} locked={locked} onSession={onSession} />
              </Suspense>
            ) : (
              item.quantity > 1 && <span className="item-qty">{t('summary.quantity', { quantity: item.quantity })}</span>
            )}
            <span className="item-amount">{money(item.amount)}</span>
          </li>
        ))}
      </ul>
      {session.shipping_options && session.shipping_options.length > 0 && (
        <Suspense fallback={null}>
          <ShippingChoice session={session} t={t} onSession={onSession} />
        </Suspense>
      )}
      {session.allow_promotion_codes && (
        <Suspense fallback={null}>
          <PromotionCode session={session} t={t} onSession={onSession} />
        </Suspense>
      )}
      {breakdown && details && (
        <dl className="breakdown" data-testid="breakdown">
          <div>
            <dt>{t('summary.subtotal')}</dt>
            <dd data-testid="subtotal">{money(session.amount_subtotal ?? 0)}</dd>
          </div>
          {details.amount_discount > 0 && (
            <div>
              <dt>{discountLabel}</dt>
              <dd data-testid="discount">−{money(details.amount_discount)}</dd>
            </div>
          )}
          {session.shipping_options && session.shipping_options.length > 0 && (
            <div>
              <dt>{t('summary.shipping')}</dt>
              <dd data-testid="shipping">{money(details.amount_shipping)}</dd>
            </div>
          )}
          {/* Each tax by rate, as the server summed it: an inclusive one is in the prices, said rather than added. */}
          {details.breakdown.taxes.map((tax, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
            <div key={i}>
              <dt>{tax.rate.inclusive ? t('summary.taxIncluded', { name: taxName(tax.rate), amount: money(tax.amount) }) : taxName(tax.rate)}</dt>
              {!tax.rate.inclusive && <dd data-testid="tax">{money(tax.amount)}</dd>}
            </div>
          ))}
        </dl>
      )}
      <p className="total">
        <span>{t(renewal ? 'summary.dueToday' : 'summary.total')}</span>
        <strong data-testid="total">{money(session.amount_total)}</strong>
      </p>
      {renewal && <p className="item-count">{renewal}</p>}
    </section>
  );
}

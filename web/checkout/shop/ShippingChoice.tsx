import { useState } from 'react';
import { ApiError, type PublicSession } from '../api';
import type { Translate } from '../i18n';
import { formatMoney } from '../format';
import { shopApi, useHydrated } from './shop-api';

// The shipping choice's styles, in the browser only: the server renders this module too (its markup is the
// page's first paint), and a stylesheet is nothing it can import.
if (typeof document !== 'undefined') void import('./shipping-choice.css');

type Bound = { unit: 'hour' | 'day' | 'business_day' | 'week' | 'month'; value: number } | null;

/** A delivery estimate in the shopper's language: units by `Intl`, business days by the catalogue. */
function estimateText(estimate: { minimum: Bound; maximum: Bound } | null, t: Translate): string | null {
  const bounds = [estimate?.minimum, estimate?.maximum].filter((bound): bound is NonNullable<Bound> => Boolean(bound));
  if (!bounds.length) return null;
  const values = [...new Set(bounds.map((bound) => bound.value))];
  const range = values.map((value) => new Intl.NumberFormat(t.lang).format(value)).join('–');
  const unit = bounds[bounds.length - 1]!.unit;
  if (unit === 'business_day') return t('shipping.businessDays', { range });
  const format = (value: number) => new Intl.NumberFormat(t.lang, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
  return values.length === 1 ? format(values[0]!) : `${new Intl.NumberFormat(t.lang).format(values[0]!)}–${format(values[1]!)}`;
}

/** The session's shipping options as a radio group; a choice is priced by the server. */
export default function ShippingChoice({ session, t, onSession }: { session: PublicSession; t: Translate; onSession: (session: PublicSession) => void }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // The shopper's pick shows at once; the totals follow when the server has priced it.
  const [pending, setPending] = useState<string | null>(null);
  const options = session.shipping_options ?? [];

  async function choose(id: string) {
    setBusy(true);
    setFailed(false);
    setPending(id);
    try {
      onSession(await shopApi.chooseShippingRate(session.id, id));
    } catch (error) {
      setFailed(!(error instanceof ApiError && error.code === 'checkout_session_completed'));
    } finally {
      setPending(null);
      setBusy(false);
    }
  }

  return (
    <fieldset className="shipping-choice" aria-busy={busy} data-testid="shipping-choice">
      <legend>{t('shipping.heading')}</legend>
      {options.map((option) => {
        const estimate = estimateText(option.delivery_estimate, t);
        return (
          <label key={option.id} className="shipping-option">
            <input
              type="radio"
              name="shipping_rate"
              value={option.id}
              checked={(pending ?? session.shipping_rate) === option.id}
              disabled={!hydrated || (busy && pending !== option.id)}
              onChange={() => void choose(option.id)}
            />
            <span className="shipping-name">{option.display_name}</span>
            <span className="shipping-amount">{formatMoney(option.amount, session.currency, t.lang)}</span>
            {estimate && <span className="shipping-estimate">{estimate}</span>}
          </label>
        );
      })}
      {failed && (
        <p className="field-error" role="alert">
          {t('promo.failed')}
        </p>
      )}
    </fieldset>
  );
}

import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, type PublicSession } from '../api';
import type { MessageKey, Translate } from '../i18n';
import { shopApi, useHydrated } from './shop-api';

// The stepper's styles, in the browser only: the server renders this module too (its markup is the
// page's first paint), and a stylesheet is nothing it can import.
if (typeof document !== 'undefined') void import('./quantity-stepper.css');

type Line = PublicSession['line_items'][number];

/**
 * Why a quantity typed or stepped to cannot be sent, before asking the server: outside the line's
 * bounds, not a whole number, or every line left at 0 (the server keeps at least one item too).
 * Null when it may be sent. The server checks the same and prices the session; the page never does.
 */
export function quantityProblem(lines: Line[], index: number, quantity: number): MessageKey | null {
  const bounds = lines[index]?.adjustable_quantity;
  if (!bounds?.enabled) return 'quantity.failed';
  if (!Number.isInteger(quantity) || quantity < bounds.minimum || quantity > bounds.maximum) return 'quantity.range';
  if (quantity === 0 && lines.every((line, i) => i === index || line.quantity === 0)) return 'quantity.keepOne';
  return null;
}

/**
 * An adjustable line's quantity: − and + buttons around a number field, within the line's bounds.
 * Each change goes to the server, which answers the session priced again; the page shows its figures.
 * Loaded only for a session with an adjustable line; locked while a payment is under way.
 */
export default function QuantityStepper({
  session,
  index,
  t,
  locked,
  onSession,
}: {
  session: PublicSession;
  index: number;
  t: Translate;
  /** A payment is under way: the quantity cannot change (the server refuses too). */
  locked: boolean;
  onSession: (session: PublicSession) => void;
}) {
  const id = useId();
  const line = session.line_items[index]!;
  const bounds = line.adjustable_quantity!;
  const [text, setText] = useState(String(line.quantity));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<MessageKey | null>(null);
  // The server's answer (or another change) sets the field again.
  useEffect(() => setText(String(line.quantity)), [line.quantity]);

  async function send(quantity: number) {
    if (quantity === line.quantity) {
      setText(String(line.quantity));
      setError(null);
      return;
    }
    const problem = quantityProblem(session.line_items, index, quantity);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSession(await shopApi.setQuantity(session.id, index, quantity));
    } catch (failure) {
      setText(String(line.quantity));
      setError(failure instanceof ApiError && failure.code === 'parameter_invalid' && quantity === 0 ? 'quantity.keepOne' : 'quantity.failed');
    } finally {
      setBusy(false);
    }
  }

  const typed = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    void send(/^\d{1,4}$/.test(value) ? Number(value) : Number.NaN);
  };
  const hydrated = useHydrated();
  const disabled = busy || locked || !hydrated;
  const inputId = `${id}-quantity`;
  return (
    <div className={`quantity${error ? ' has-error' : ''}`} data-testid="quantity-stepper">
      <div className="quantity-row" aria-busy={busy}>
        <button
          type="button"
          className="quantity-button"
          aria-label={t('quantity.decrease', { item: line.name })}
          disabled={disabled || line.quantity <= bounds.minimum}
          onClick={() => void send(line.quantity - 1)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <input
          id={inputId}
          className="quantity-input"
          type="number"
          min={bounds.minimum}
          max={bounds.maximum}
          step={1}
          autoComplete="off"
          aria-label={t('quantity.label', { item: line.name })}
          aria-invalid={error !== null}
          aria-describedby={`${inputId}-error`}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onBlur={typed}
          onKeyDown={(e) => {
            if (e.key === 'Enter') typed(e);
          }}
        />
        <button
          type="button"
          className="quantity-button"
          aria-label={t('quantity.increase', { item: line.name })}
          disabled={disabled || line.quantity >= bounds.maximum}
          onClick={() => void send(line.quantity + 1)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
      <p className="field-error" id={`${inputId}-error`} role="alert">
        {error ? t(error, { minimum: bounds.minimum, maximum: bounds.maximum }) : ''}
      </p>
    </div>
  );
}

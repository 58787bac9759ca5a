import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError, type PublicSession } from '../api';
import type { Translate } from '../i18n';
import { shopApi, useHydrated } from './shop-api';

// The field's styles, in the browser only: the server renders this module too (its markup is the
// page's first paint), and a stylesheet is nothing it can import.
if (typeof document !== 'undefined') void import('./promotion-code.css');

/** The promotion code field: apply a code, or remove the one applied. The server decides and prices. */
export default function PromotionCode({ session, t, onSession }: { session: PublicSession; t: Translate; onSession: (session: PublicSession) => void }) {
  const hydrated = useHydrated();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<'promo.invalid' | 'promo.failed' | null>(null);
  const applied = session.discount?.code ?? null;
  const input = useRef<HTMLInputElement>(null);
  // A refused code: the field keeps (or gets back) the focus, where it can be corrected; the alert below says why.
  useEffect(() => {
    if (error && !busy) input.current?.focus();
  }, [error, busy]);

  async function send(value: string | null) {
    setBusy(true);
    setError(null);
    try {
      onSession(await shopApi.applyPromotionCode(session.id, value));
      setCode('');
      setOpen(false);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.code === 'parameter_invalid' ? 'promo.invalid' : 'promo.failed');
    } finally {
      setBusy(false);
    }
  }

  if (applied) {
    return (
      <p className="promo-applied" data-testid="promo-applied">
        <span>{t('promo.applied', { code: applied })}</span>
        <button type="button" className="link-button" disabled={busy} onClick={() => void send(null)}>
          {t('promo.remove')}
        </button>
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="link-button promo-open" disabled={!hydrated} onClick={() => setOpen(true)}>
        {t('promo.add')}
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() && !busy) void send(code.trim());
  };
  return (
    <form className={`promo${error ? ' has-error' : ''}`} onSubmit={submit} noValidate>
      <label htmlFor={`${id}-code`}>{t('promo.label')}</label>
      <div className="promo-row">
        <input
          ref={input}
          id={`${id}-code`}
          className="field-input"
          name="promotion_code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          // Read-only rather than disabled while the code is checked: a disabled field would drop the focus to the page.
          readOnly={busy}
          aria-invalid={error !== null}
          aria-describedby={`${id}-error`}
          onChange={(e) => setCode(e.target.value)}
          // biome-ignore lint/a11y/noAutofocus: shown by the shopper's own tap on "Add a code": focus follows it.
          autoFocus
        />
        <button type="submit" className="secondary-button" disabled={busy || !code.trim()} aria-busy={busy}>
          {t('promo.apply')}
        </button>
      </div>
      <p className="field-error" id={`${id}-error`} role="alert" data-testid="promo-error">
        {error ? t(error) : ''}
      </p>
    </form>
  );
}

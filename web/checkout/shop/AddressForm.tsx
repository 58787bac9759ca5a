import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { ApiError, type PublicAddress, type PublicSession } from '../api';
import type { MessageKey, Translate } from '../i18n';
import type { AddressField } from '../../../src/domain/addresses/entities';
import { shopApi, useHydrated, type AddressFormatView, type AddressValue } from './shop-api';

type Kind = 'shipping' | 'billing';

const AUTOCOMPLETE: Record<AddressField, string> = {
  name: 'name',
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  postal_code: 'postal-code',
};

const empty: AddressValue = { line1: '', line2: '', city: '', state: '', postal_code: '', country: '' };

/** The label of a field, by the name the country's data gives it (zip, post town, prefecture…). */
function labelOf(field: AddressField, format: AddressFormatView, t: Translate): string {
  const named = (key: string, fallback: MessageKey) => (t.has(key) ? t(key) : t(fallback));
  if (field === 'state') return named(`address.state.${format.labels.state}`, 'address.state.province');
  if (field === 'city') return named(`address.city.${format.labels.city}`, 'address.city.city');
  if (field === 'postal_code') return named(`address.postal.${format.labels.postal_code}`, 'address.postal.postal');
  return t(field === 'name' ? 'address.name' : field === 'line1' ? 'address.line1' : 'address.line2');
}

/**
 * A saved address's lines as its country writes them: the rows of its format (`Toronto ON M5H 2N2`
 * in Canada, `75002 Paris` in France), each row's fields side by side. Until the format is here, one
 * line per field.
 */
export function savedAddressLines(name: string | null, address: PublicAddress, format: Pick<AddressFormatView, 'rows'> | null): string[] {
  const value = (field: AddressField) => (field === 'name' ? name : address[field]) ?? '';
  const rows = format?.rows ?? [['name'], ['line1'], ['line2'], ['city'], ['state'], ['postal_code']];
  return rows.map((row) => row.map(value).filter(Boolean).join(' ')).filter(Boolean);
}

/**
 * One address (shipping or billing), laid out as its country writes addresses: fields, order,
 * labels, required fields and postal-code rule from the country's format (Google's address data,
 * served by the server that checks the address again). Autofill fills it (`autocomplete`).
 */
function AddressForm({ session, kind, countries, t, onSession }: { session: PublicSession; kind: Kind; countries: string[]; t: Translate; onSession: (session: PublicSession) => void }) {
  const id = useId();
  const hydrated = useHydrated();
  const stored = kind === 'shipping' ? session.shipping_details?.address : session.billing_address;
  const [editing, setEditing] = useState(!stored);
  const [value, setValue] = useState<AddressValue>(() => ({ ...empty, ...(stored ? Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, v ?? ''])) : {}), country: stored?.country ?? countries[0] ?? '' }));
  const [name, setName] = useState(session.shipping_details?.name ?? '');
  const [format, setFormat] = useState<AddressFormatView | null>(null);
  const [errors, setErrors] = useState<Partial<Record<AddressField | 'form', MessageKey>>>({});
  const [busy, setBusy] = useState(false);
  const regionNames = useMemo(() => new Intl.DisplayNames([t.lang], { type: 'region' }), [t.lang]);
  const sortedCountries = useMemo(
    () => countries.map((code) => ({ code, name: regionNames.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, t.lang)),
    [countries, regionNames, t.lang],
  );

  useEffect(() => {
    let live = true;
    if (!value.country) return;
    shopApi.addressFormat(value.country).then(
      (loaded) => live && setFormat(loaded),
      () => live && setErrors({ form: 'promo.failed' }),
    );
    return () => {
      live = false;
    };
  }, [value.country]);

  const rows = (format?.rows ?? []).map((row) => row.filter((field) => field !== 'name' || kind === 'shipping')).filter((row) => row.length > 0);
  const required = (field: AddressField) => Boolean(format?.required.includes(field)) && (field !== 'name' || kind === 'shipping');

  function check(): boolean {
    if (!format) return false;
    const found: typeof errors = {};
    for (const field of rows.flat()) {
      const text = field === 'name' ? name : value[field];
      if (required(field) && !text.trim()) found[field] = 'address.required';
    }
    if (!found.postal_code && value.postal_code.trim() && format.postal_code_pattern && !new RegExp(`^(?:${format.postal_code_pattern})$`, 'i').test(value.postal_code.trim())) {
      found.postal_code = 'address.postalInvalid';
    }
    setErrors(found);
    return Object.keys(found).length === 0;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!check()) return;
    setBusy(true);
    try {
      const body = kind === 'shipping' ? { shipping_details: { name, address: value } } : { billing_address: value };
      onSession(await shopApi.setAddresses(session.id, body));
      setEditing(false);
    } catch (error) {
      const field = error instanceof ApiError ? /\[(line1|line2|city|state|postal_code|name)\]$/.exec(error.param ?? '')?.[1] : undefined;
      setErrors(field ? { [field]: field === 'postal_code' ? 'address.postalInvalid' : 'address.invalid' } : { form: 'address.invalid' });
    } finally {
      setBusy(false);
    }
  }

  const heading = t(kind === 'shipping' ? 'address.shippingHeading' : 'address.billingHeading');
  if (!editing && stored) {
    const lines = [...savedAddressLines(kind === 'shipping' ? (session.shipping_details?.name ?? null) : null, stored, format?.country === stored.country ? format : null), regionNames.of(stored.country)];
    return (
      <section className="address address-saved" aria-labelledby={`${id}-h`} data-testid={`${kind}-address`}>
        <h2 id={`${id}-h`}>{heading}</h2>
        <p className="address-lines">
          {lines.filter(Boolean).map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
            <span key={i}>{line}</span>
          ))}
        </p>
        <button type="button" className="link-button" onClick={() => setEditing(true)}>
          {t('address.edit')}
        </button>
      </section>
    );
  }

  const input = (field: AddressField) => {
    const inputId = `${id}-${field}`;
    const label = labelOf(field, format!, t);
    const error = errors[field];
    const common = {
      id: inputId,
      name: `${kind}_${field}`,
      className: 'field-input',
      autoComplete: `${kind} ${AUTOCOMPLETE[field]}`,
      required: required(field),
      'aria-invalid': Boolean(error),
      'aria-describedby': `${inputId}-error`,
      disabled: busy || !hydrated,
    };
    const text = field === 'name' ? name : value[field];
    const set = (next: string) => (field === 'name' ? setName(next) : setValue({ ...value, [field]: next }));
    return (
      <div key={field} className={`field${error ? ' has-error' : ''}`}>
        <label htmlFor={inputId}>{required(field) ? label : t('address.optional', { label })}</label>
        <div className="field-box">
          {field === 'state' && format!.states.length > 0 ? (
            <select {...common} value={text} onChange={(e) => set(e.target.value)}>
              <option value="">{t('address.select')}</option>
              {format!.states.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name}
                </option>
              ))}
            </select>
          ) : (
            <input {...common} value={text} onChange={(e) => set(e.target.value)} placeholder={field === 'postal_code' ? format!.postal_code_examples[0] : undefined} />
          )}
        </div>
        <p className="field-error" id={`${inputId}-error`} aria-live="polite">
          {error ? t(error, { example: format!.postal_code_examples[0] ?? '' }) : ''}
        </p>
      </div>
    );
  };

  return (
    <form className="address" aria-labelledby={`${id}-h`} onSubmit={submit} noValidate data-testid={`${kind}-form`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      <div className="field">
        <label htmlFor={`${id}-country`}>{t('address.country')}</label>
        <div className="field-box">
          <select
            id={`${id}-country`}
            name={`${kind}_country`}
            className="field-input"
            autoComplete={`${kind} country`}
            value={value.country}
            disabled={busy || !hydrated}
            onChange={(e) => {
              setFormat(null);
              setErrors({});
              setValue({ ...value, country: e.target.value, state: '' });
            }}
          >
            {sortedCountries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {format &&
        rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list, never reordered: its position is its identity.
          <div key={i} className={row.length > 1 ? 'field-row address-row' : undefined}>
            {row.map(input)}
          </div>
        ))}
      {errors.form && (
        <p className="field-error" role="alert">
          {t(errors.form)}
        </p>
      )}
      <button type="submit" className="secondary-button" disabled={busy || !format} aria-busy={busy}>
        {t('address.save')}
      </button>
    </form>
  );
}

/** The addresses the session asks for, before the payment form; loaded only for such a session. */
export default function AddressSection({ session, t, onSession }: { session: PublicSession; t: Translate; onSession: (session: PublicSession) => void }) {
  const [allCountries, setAllCountries] = useState<string[] | null>(null);
  const billing = session.billing_address_collection === 'required';
  useEffect(() => {
    if (billing) shopApi.addressCountries().then((answer) => setAllCountries(answer.countries), () => setAllCountries([]));
  }, [billing]);
  return (
    <div className="addresses">
      {session.shipping_address_collection && (
        <AddressForm session={session} kind="shipping" countries={session.shipping_address_collection.allowed_countries} t={t} onSession={onSession} />
      )}
      {billing && allCountries && <AddressForm session={session} kind="billing" countries={allCountries} t={t} onSession={onSession} />}
    </div>
  );
}

import { useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type FormEvent, type Ref } from 'react';
import { ApiError, type PublicAddress, type PublicSession } from '../api';
import type { MessageKey, Translate } from '../i18n';
import type { CardFormEngine } from '../card-form/engine';
import type { AddressField } from '../../../src/domain/addresses/entities';
import { shopApi, useHydrated, type AddressFormatView, type AddressValue } from './shop-api';

// The address form's styles, in the browser only: the server renders this module too (its markup is the
// page's first paint), and a stylesheet is nothing it can import.
if (typeof document !== 'undefined') void import('./address-form.css');

type Kind = 'shipping' | 'billing';

const AUTOCOMPLETE: Record<AddressField, string> = {
  name: 'name',
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  state: 'address-level1',
  postal_code: 'postal-code',
};

/**
 * The addresses as the payment form uses them: Pay saves what the shopper typed before paying (no
 * "Use this address" press needed), or points at what is missing.
 */
export interface AddressesHandle {
  /**
   * Sends the addresses typed in open forms (nothing when the session has them all and no form is
   * open). `invalid`: a field to fix shows its message, focused; `total_changed`: the address
   * changed the price (tax), which the shopper sees before paying.
   */
  save(): Promise<'saved' | 'invalid' | 'total_changed'>;
  /**
   * Before a payment: saves the addresses, gives the card form the billing address's postal code
   * when it does not ask it, and answers the notice to show when the payment must wait (null: pay).
   * A network failure is said as such; any other refusal (the session expired or was paid
   * meanwhile) lets the payment go on, whose answer the page then shows.
   */
  beforePay(engine: CardFormEngine | null): Promise<{ tone: 'error' | 'info'; key: MessageKey } | null>;
}

/** What one address form holds, read by the section when it saves. */
interface FormApi {
  /** The typed address when it passes the page's checks; null when the form is closed; false (messages shown, first field focused) when not. */
  pending(): { name: string; address: AddressValue } | null | false;
  /** The server refused this field (its name in the error's param), or the address as a whole. */
  refused(field: string | undefined): void;
  /** Saved: the form closes to the address's summary. */
  saved(): void;
}

type Body = { shipping_details?: { name: string; address: AddressValue }; billing_address?: AddressValue };

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
function AddressForm({
  session,
  kind,
  countries,
  t,
  api,
  onSave,
  children,
}: {
  session: PublicSession;
  kind: Kind;
  countries: string[];
  t: Translate;
  /** Where the form puts what the section reads when it saves. */
  api: React.RefObject<Partial<Record<Kind, FormApi>>>;
  /** "Use this address": the section saves this form's address. */
  onSave: (kind: Kind) => Promise<unknown>;
  children?: React.ReactNode;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const stored = kind === 'shipping' ? session.shipping_details?.address : session.billing_address;
  const [editing, setEditing] = useState(!stored);
  const [value, setValue] = useState<AddressValue>(() => ({
    ...empty,
    ...(stored ? Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, v ?? ''])) : {}),
    country: stored?.country ?? countries[0] ?? '',
  }));
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

  const focusField = (field: AddressField | 'country') => document.getElementById(`${id}-${field}`)?.focus();

  function check(): boolean {
    if (!format) {
      focusField('country');
      return false;
    }
    const found: typeof errors = {};
    for (const field of rows.flat()) {
      const text = field === 'name' ? name : value[field];
      if (required(field) && !text.trim()) found[field] = 'address.required';
    }
    if (
      !found.postal_code &&
      value.postal_code.trim() &&
      format.postal_code_pattern &&
      !new RegExp(`^(?:${format.postal_code_pattern})$`, 'i').test(value.postal_code.trim())
    ) {
      found.postal_code = 'address.postalInvalid';
    }
    setErrors(found);
    const first = rows.flat().find((field) => found[field]);
    if (first) focusField(first);
    return !first;
  }

  api.current[kind] = {
    pending: () => (editing || !stored ? (check() ? { name, address: value } : false) : null),
    refused: (field) => {
      setEditing(true);
      setErrors(field ? { [field]: field === 'postal_code' ? 'address.postalInvalid' : 'address.invalid' } : { form: 'address.invalid' });
      if (field) setTimeout(() => focusField(field as AddressField));
    },
    saved: () => setEditing(false),
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await onSave(kind);
    } catch {
      setErrors({ form: 'address.invalid' });
    } finally {
      setBusy(false);
    }
  }

  const heading = t(kind === 'shipping' ? 'address.shippingHeading' : 'address.billingHeading');
  if (!editing && stored) {
    const lines = [
      ...savedAddressLines(kind === 'shipping' ? (session.shipping_details?.name ?? null) : null, stored, format?.country === stored.country ? format : null),
      regionNames.of(stored.country),
    ];
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
        {children}
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
            <input
              {...common}
              value={text}
              onChange={(e) => set(e.target.value)}
              placeholder={field === 'postal_code' ? format!.postal_code_examples[0] : undefined}
            />
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
      {children}
    </form>
  );
}

/** A stored address in the shape the form sends. */
function asValue(address: NonNullable<PublicSession['billing_address']>): AddressValue {
  return { ...empty, ...Object.fromEntries(Object.entries(address).map(([k, v]) => [k, v ?? ''])), country: address.country };
}

/** Where the server's error names a field: `shipping_details[address][postal_code]`, `billing_address[city]`. */
function refusedField(param: string | undefined): { kind: Kind; field: string | undefined } {
  const kind: Kind = param?.startsWith('billing_address') ? 'billing' : 'shipping';
  return { kind, field: /\[(line1|line2|city|state|postal_code|name)\]$/.exec(param ?? '')?.[1] };
}

/**
 * The addresses the session asks for, before the payment form; loaded only for such a session. A
 * session asking for both takes the billing address as the shipping one unless the shopper says
 * otherwise. Pay saves them (`handle`); "Use this address" saves one early, to see its tax.
 */
export default function AddressSection({
  session,
  t,
  onSession,
  handle,
  sameAsShipping,
  onSameAsShipping,
}: {
  session: PublicSession;
  t: Translate;
  onSession: (session: PublicSession) => void;
  handle?: Ref<AddressesHandle>;
  /** The billing address is the shipping one (the box under the shipping address, ticked by default). */
  sameAsShipping: boolean;
  onSameAsShipping: (same: boolean) => void;
}) {
  const [allCountries, setAllCountries] = useState<string[] | null>(null);
  const billing = session.billing_address_collection === 'required';
  const shipping = Boolean(session.shipping_address_collection);
  const forms = useRef<Partial<Record<Kind, FormApi>>>({});
  const hydrated = useHydrated();
  const same = shipping && billing && sameAsShipping;
  const current = useRef({ session, same, onSession, sameAsShipping, saved: null as PublicSession | null });
  current.current = { ...current.current, session, same, onSession, sameAsShipping };
  useEffect(() => {
    if (billing)
      shopApi.addressCountries().then(
        (answer) => setAllCountries(answer.countries),
        () => setAllCountries([]),
      );
  }, [billing]);

  /**
   * What each form holds. Every open form is checked, so each shows what it lacks; the last one
   * first, so that the focus ends on the first field to fix. A form not shown yet has nothing to give.
   */
  const collect = (kinds: readonly Kind[]) =>
    [...kinds]
      .reverse()
      .map((kind) => [kind, forms.current[kind] ? forms.current[kind].pending() : false] as const)
      .reverse();

  const save = async (only?: Kind): Promise<'saved' | 'invalid' | 'total_changed'> => {
    const { session, same, onSession } = current.current;
    const body: Body = {};
    const kinds: Kind[] = (only ? [only] : (['shipping', 'billing'] as const)).filter((kind) => (kind === 'shipping' ? shipping : billing && !same));
    const pending = collect(kinds);
    if (pending.some(([, typed]) => typed === false)) return 'invalid';
    for (const [kind, typed] of pending) {
      if (!typed) continue;
      if (kind === 'shipping') body.shipping_details = { name: typed.name, address: typed.address };
      else body.billing_address = typed.address;
    }
    if (same) {
      const shippingAddress = body.shipping_details?.address ?? (session.shipping_details ? asValue(session.shipping_details.address) : null);
      if (shippingAddress && (body.shipping_details || !session.billing_address)) body.billing_address = shippingAddress;
    }
    if (!body.shipping_details && !body.billing_address) return 'saved';
    try {
      const next = await shopApi.setAddresses(session.id, body);
      current.current.saved = next;
      onSession(next);
      for (const [kind, typed] of pending) if (typed) forms.current[kind]?.saved();
      return next.amount_total === session.amount_total ? 'saved' : 'total_changed';
    } catch (error) {
      // Not about an address (the session expired or was paid meanwhile): the caller says so.
      if (!(error instanceof ApiError) || error.code === 'network' || !error.param) throw error;
      const { kind, field } = refusedField(error.param);
      forms.current[same ? 'shipping' : kind]?.refused(field);
      return 'invalid';
    }
  };
  const postalCode = () => {
    const { session, saved, sameAsShipping } = current.current;
    const latest = saved ?? session;
    if (billing && !(shipping && sameAsShipping)) return latest.billing_address?.postal_code ?? '';
    if (shipping && sameAsShipping) return latest.shipping_details?.address.postal_code ?? '';
    return null;
  };
  const beforePay = async (engine: CardFormEngine | null) => {
    let saved: Awaited<ReturnType<typeof save>>;
    try {
      saved = await save();
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'network') return { tone: 'error' as const, key: 'error.network' as const };
      saved = 'saved';
    }
    if (saved === 'invalid') return { tone: 'error' as const, key: 'form.fixErrors' as const };
    if (saved === 'total_changed') return { tone: 'info' as const, key: 'address.totalChanged' as const };
    const code = postalCode();
    if (code !== null) engine?.setPostalCode(code);
    return null;
  };
  useImperativeHandle(handle, () => ({ save: () => save(), beforePay }));
  // A billing address given apart from the shipping one: the box starts unticked.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the addresses the page opened with.
  useEffect(() => {
    const given = session.billing_address;
    const shipped = session.shipping_details?.address;
    if (given && shipped && (['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const).some((key) => (given[key] ?? '') !== (shipped[key] ?? '')))
      onSameAsShipping(false);
  }, []);

  // A session asking for a shipping address only: unticked, the card form asks the card's postal code.
  const sameBox = shipping && (
    <label className="save-card address-same">
      <input type="checkbox" checked={sameAsShipping} disabled={!hydrated} onChange={(e) => onSameAsShipping(e.target.checked)} />
      <span>{t('address.billingSame')}</span>
    </label>
  );
  return (
    <div className="addresses">
      {shipping && (
        <AddressForm session={session} kind="shipping" countries={session.shipping_address_collection!.allowed_countries} t={t} api={forms} onSave={save}>
          {sameBox}
        </AddressForm>
      )}
      {billing && !same && allCountries && <AddressForm session={session} kind="billing" countries={allCountries} t={t} api={forms} onSave={save} />}
    </div>
  );
}

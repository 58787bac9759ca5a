import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type List, type PaymentLink, type Product } from '../api';
import { ErrorNote, Field, ModeTable } from '../components';
import { formatMoney, formatTime, parseAmount, toMinor } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useApiQuery } from '../queries';
import { useT } from '../i18n';

/** A custom field as the form edits it; its key is made of its label. */
interface FieldDraft {
  label: string;
  type: 'text' | 'numeric' | 'dropdown';
  optional: boolean;
  options: string;
}

/** Per product: whether the shopper may change its quantity, and within which bounds. */
interface QuantityLimits {
  enabled: boolean;
  minimum: string;
  maximum: string;
}

const MAX_CUSTOM_FIELDS = 3;
/** Stripe's limit of shipping choices per session, which a link's sessions carry. */
const MAX_SHIPPING_CHOICES = 5;

/** A shipping choice as the form edits it: its name and price as typed. */
interface ShippingDraft {
  name: string;
  price: string;
}

/** Letters and digits of a label, unique among the link's fields: Stripe's `custom_fields[].key`. */
function fieldKeys(fields: FieldDraft[]): string[] {
  const keys: string[] = [];
  fields.forEach((field, i) => {
    let key =
      field.label
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 40) || `field${i + 1}`;
    if (keys.includes(key)) key = `${key}${i + 1}`;
    keys.push(key);
  });
  return keys;
}

/** The form's shopper options in the API's shapes (the server checks them as a session's). */
function linkOptions(o: {
  promo: boolean;
  billing: boolean;
  shipping: boolean;
  countries: string;
  rates: ShippingDraft[];
  currency: string;
  fields: FieldDraft[];
}) {
  const keys = fieldKeys(o.fields);
  return {
    ...(o.promo ? { allow_promotion_codes: true } : {}),
    ...(o.billing ? { billing_address_collection: 'required' } : {}),
    ...(o.shipping
      ? {
          shipping_address_collection: {
            allowed_countries: o.countries
              .split(/[\s,]+/)
              .map((c) => c.trim())
              .filter(Boolean),
          },
        }
      : {}),
    ...(o.shipping && o.rates.length
      ? {
          shipping_options: o.rates.map((rate) => ({
            // A price that is not one (more decimals than the currency has) goes as null: the server refuses it, saying which.
            shipping_rate_data: {
              type: 'fixed_amount',
              display_name: rate.name.trim(),
              fixed_amount: { amount: parseAmount(rate.price, o.currency), currency: o.currency.toLowerCase() },
            },
          })),
        }
      : {}),
    ...(o.fields.length
      ? {
          custom_fields: o.fields.map((field, i) => ({
            key: keys[i],
            label: { type: 'custom', custom: field.label },
            type: field.type,
            optional: field.optional,
            ...(field.type === 'dropdown'
              ? {
                  dropdown: {
                    options: field.options
                      .split(',')
                      .map((option) => option.trim())
                      .filter(Boolean)
                      .map((label, j) => ({ label, value: label.replace(/[^A-Za-z0-9]/g, '').slice(0, 90) || `option${j + 1}` })),
                  },
                }
              : {}),
          })),
        }
      : {}),
  };
}

/** What a link asks of the shopper besides paying, in a line. */
function linkOptionSummary(link: PaymentLink, t: ReturnType<typeof useT>): string {
  return [
    link.allow_promotion_codes ? t('links.summary.promo') : null,
    link.billing_address_collection === 'required' ? t('links.summary.billing') : null,
    link.shipping_address_collection ? t('links.summary.shipping', { countries: link.shipping_address_collection.allowed_countries.join(', ') }) : null,
    ...(link.shipping_options ?? []).map(({ shipping_rate_data: rate }) =>
      t('links.summary.shippingChoice', {
        name: rate.display_name,
        price: formatMoney(rate.fixed_amount.amount, rate.fixed_amount.currency.toUpperCase(), undefined),
      }),
    ),
    ...(link.custom_fields ?? []).map((field) => t('links.summary.field', { label: field.label.custom })),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Products with a price, and payment links made of them: create, copy the URL, deactivate. */
export function PaymentLinksPage({ base, place }: PageScope) {
  const t = useT();
  const products = useApiQuery<List<Product>>(`/accounts${base}/products?limit=100`);
  const links = useApiQuery<List<PaymentLink>>(`/accounts${base}/payment-links?limit=100`);
  const manage = can(place.account.role, 'payment_links.manage');
  const { busy, error, notice, act } = useAction();
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState(place.account.default_currency.toUpperCase());
  const [price, setPrice] = useState('');
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const [limits, setLimits] = useState<Record<string, QuantityLimits>>({});
  const [promo, setPromo] = useState(false);
  const [billing, setBilling] = useState(false);
  const [shipping, setShipping] = useState(false);
  const [countries, setCountries] = useState('');
  const [rates, setRates] = useState<ShippingDraft[]>([]);
  const setRate = (i: number, change: Partial<ShippingDraft>) => setRates(rates.map((rate, j) => (j === i ? { ...rate, ...change } : rate)));
  const [fields, setFields] = useState<FieldDraft[]>([]);
  const setField = (i: number, change: Partial<FieldDraft>) => setFields(fields.map((field, j) => (j === i ? { ...field, ...change } : field)));

  const createProduct = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api('POST', `/accounts${base}/products`, {
        name: name.trim(),
        default_price_data: { currency: currency.toLowerCase(), unit_amount: Number(toMinor(price, currency)) },
      });
      setName('');
      setPrice('');
      return t('links.productCreated', { name: name.trim() });
    }, [`/accounts${base}/products`]);
  };

  const priced = (products.data?.data ?? []).filter((p) => p.active && p.default_price);
  const createLink = (event: FormEvent) => {
    event.preventDefault();
    const items = priced
      .map((p) => {
        const limit = limits[p.id];
        const adjustable = limit?.enabled
          ? {
              adjustable_quantity: {
                enabled: true,
                ...(limit.minimum ? { minimum: Number(limit.minimum) } : {}),
                ...(limit.maximum ? { maximum: Number(limit.maximum) } : {}),
              },
            }
          : {};
        return { price: p.default_price!.id, quantity: Number(quantities[p.id] ?? 0), ...adjustable };
      })
      .filter((item) => item.quantity > 0);
    // The link charges in its prices' currency: its shipping choices are priced in it too.
    const linkCurrency = priced.find((p) => Number(quantities[p.id] ?? 0) > 0)?.default_price?.currency ?? currency;
    void act(async () => {
      await api('POST', `/accounts${base}/payment-links`, {
        line_items: items,
        ...linkOptions({ promo, billing, shipping, countries, rates, currency: linkCurrency, fields }),
      });
      setQuantities({});
      setLimits({});
      setPromo(false);
      setBilling(false);
      setShipping(false);
      setCountries('');
      setRates([]);
      setFields([]);
      return t('links.linkCreated');
    }, [`/accounts${base}/payment-links`]);
  };

  const setActive = (link: PaymentLink, active: boolean) =>
    act(async () => {
      await api('POST', `/accounts${base}/payment-links/${link.id}`, { active });
      return active ? t('links.activated') : t('links.deactivated');
    }, [`/accounts${base}/payment-links`]);

  const copy = (link: PaymentLink) =>
    act(async () => {
      await navigator.clipboard.writeText(link.url);
      return t('links.copied');
    });

  return (
    <>
      <h1>{t('links.title')}</h1>
      <ErrorNote error={error ?? products.error ?? links.error} />
      {notice && (
        <p role="status" className="result">
          {notice}
        </p>
      )}
      <section aria-labelledby="links-title">
        <h2 id="links-title">{t('links.links')}</h2>
        {manage && (
          <form className="panel" onSubmit={createLink} aria-labelledby="new-link-title">
            <h3 id="new-link-title">{t('links.newLink')}</h3>
            {priced.length === 0 ? (
              <p>{t('links.needProduct')}</p>
            ) : (
              <>
                {priced.map((p) => {
                  const limit = limits[p.id] ?? { enabled: false, minimum: '', maximum: '' };
                  const setLimit = (change: Partial<QuantityLimits>) => setLimits({ ...limits, [p.id]: { ...limit, ...change } });
                  return (
                    <div key={p.id}>
                      <Field
                        id={`qty-${p.id}`}
                        label={t('links.quantityOf', {
                          name: p.name,
                          price: formatMoney(p.default_price!.unit_amount, p.default_price!.currency.toUpperCase(), undefined),
                        })}
                      >
                        <input
                          id={`qty-${p.id}`}
                          type="number"
                          min={0}
                          max={999}
                          value={quantities[p.id] ?? '0'}
                          onChange={(e) => setQuantities({ ...quantities, [p.id]: e.target.value })}
                        />
                      </Field>
                      {Number(quantities[p.id] ?? 0) > 0 && (
                        <>
                          <label className="inline">
                            <input type="checkbox" checked={limit.enabled} onChange={(e) => setLimit({ enabled: e.target.checked })} />
                            {t('links.adjustableOf', { name: p.name })}
                          </label>
                          {limit.enabled && (
                            <div className="columns">
                              <Field id={`qty-min-${p.id}`} label={t('links.minimumOf', { name: p.name })}>
                                <input
                                  id={`qty-min-${p.id}`}
                                  type="number"
                                  min={0}
                                  max={999}
                                  value={limit.minimum}
                                  onChange={(e) => setLimit({ minimum: e.target.value })}
                                />
                              </Field>
                              <Field id={`qty-max-${p.id}`} label={t('links.maximumOf', { name: p.name })}>
                                <input
                                  id={`qty-max-${p.id}`}
                                  type="number"
                                  min={1}
                                  max={999}
                                  value={limit.maximum}
                                  onChange={(e) => setLimit({ maximum: e.target.value })}
                                />
                              </Field>
                            </div>
                          )}
                        </>
                      )}
                    </div>
                  );
                })}
                <fieldset>
                  <legend>{t('links.options')}</legend>
                  <label className="inline">
                    <input type="checkbox" checked={promo} onChange={(e) => setPromo(e.target.checked)} />
                    {t('links.allowPromotionCodes')}
                  </label>
                  <label className="inline">
                    <input type="checkbox" checked={billing} onChange={(e) => setBilling(e.target.checked)} />
                    {t('links.billingAddress')}
                  </label>
                  <label className="inline">
                    <input type="checkbox" checked={shipping} onChange={(e) => setShipping(e.target.checked)} />
                    {t('links.shippingAddress')}
                  </label>
                  {shipping && (
                    <Field id="link-countries" label={t('links.countries')} hint={t('links.countriesHint')}>
                      <input
                        id="link-countries"
                        required
                        aria-describedby="link-countries-hint"
                        autoCapitalize="characters"
                        value={countries}
                        onChange={(e) => setCountries(e.target.value)}
                      />
                    </Field>
                  )}
                  {shipping &&
                    rates.map((rate, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: drafts with controlled inputs, numbered by position in their labels: the position is their identity.
                      <div key={i} className="panel" data-testid="shipping-choice-draft">
                        <Field id={`ship-name-${i}`} label={t('links.shippingChoice.name', { n: i + 1 })}>
                          <input id={`ship-name-${i}`} required maxLength={100} value={rate.name} onChange={(e) => setRate(i, { name: e.target.value })} />
                        </Field>
                        <Field id={`ship-price-${i}`} label={t('links.shippingChoice.price', { n: i + 1 })}>
                          <input
                            id={`ship-price-${i}`}
                            required
                            inputMode="decimal"
                            pattern="\d{1,9}([.,]\d{0,3})?"
                            value={rate.price}
                            onChange={(e) => setRate(i, { price: e.target.value })}
                          />
                        </Field>
                        <button type="button" className="secondary" onClick={() => setRates(rates.filter((_, j) => j !== i))}>
                          {t('links.shippingChoice.remove', { n: i + 1 })}
                        </button>
                      </div>
                    ))}
                  {shipping && rates.length < MAX_SHIPPING_CHOICES && (
                    <button type="button" className="secondary" onClick={() => setRates([...rates, { name: '', price: '' }])}>
                      {t('links.shippingChoice.add')}
                    </button>
                  )}
                </fieldset>
                <fieldset>
                  <legend>{t('links.customFields')}</legend>
                  {fields.map((field, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: drafts with controlled inputs, numbered by position in their labels: the position is their identity.
                    <div key={i} className="panel" data-testid="custom-field-draft">
                      <Field id={`cf-label-${i}`} label={t('links.customField.label', { n: i + 1 })}>
                        <input id={`cf-label-${i}`} required maxLength={50} value={field.label} onChange={(e) => setField(i, { label: e.target.value })} />
                      </Field>
                      <Field id={`cf-type-${i}`} label={t('links.customField.type', { n: i + 1 })}>
                        <select id={`cf-type-${i}`} value={field.type} onChange={(e) => setField(i, { type: e.target.value as FieldDraft['type'] })}>
                          <option value="text">{t('links.customField.text')}</option>
                          <option value="numeric">{t('links.customField.numeric')}</option>
                          <option value="dropdown">{t('links.customField.dropdown')}</option>
                        </select>
                      </Field>
                      {field.type === 'dropdown' && (
                        <Field id={`cf-options-${i}`} label={t('links.customField.options', { n: i + 1 })} hint={t('links.customField.optionsHint')}>
                          <input
                            id={`cf-options-${i}`}
                            required
                            aria-describedby={`cf-options-${i}-hint`}
                            value={field.options}
                            onChange={(e) => setField(i, { options: e.target.value })}
                          />
                        </Field>
                      )}
                      <label className="inline">
                        <input type="checkbox" checked={field.optional} onChange={(e) => setField(i, { optional: e.target.checked })} />
                        {t('links.customField.optional', { n: i + 1 })}
                      </label>
                      <button type="button" className="secondary" onClick={() => setFields(fields.filter((_, j) => j !== i))}>
                        {t('links.customField.remove', { n: i + 1 })}
                      </button>
                    </div>
                  ))}
                  {fields.length < MAX_CUSTOM_FIELDS && (
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => setFields([...fields, { label: '', type: 'text', optional: false, options: '' }])}
                    >
                      {t('links.customField.add')}
                    </button>
                  )}
                </fieldset>
                <button type="submit" disabled={busy || !Object.values(quantities).some((q) => Number(q) > 0)}>
                  {t('links.createLink')}
                </button>
              </>
            )}
          </form>
        )}
        <ModeTable
          rows={links.data?.data}
          what={t('links.loading')}
          emptyWhat={t('links.none')}
          mode={place.mode}
          columns={[t('links.col.items'), t('links.col.total'), t('links.col.url'), t('links.col.created'), t('links.col.state')]}
          row={(l) => (
            <tr key={l.id}>
              <td>
                {l.line_items.map((i) => t('links.item', { quantity: i.quantity, name: i.name })).join(', ')}
                {linkOptionSummary(l, t) && (
                  <>
                    <br />
                    <span className="hint" data-testid="link-options">
                      {linkOptionSummary(l, t)}
                    </span>
                  </>
                )}
              </td>
              <td>{formatMoney(l.amount_total, l.currency.toUpperCase(), undefined)}</td>
              <td>
                <a href={l.url} className="mono" data-testid="link-url">
                  {l.url}
                </a>{' '}
                <button type="button" className="secondary" onClick={() => void copy(l)} aria-label={t('links.copyUrlOf', { url: l.url })}>
                  {t('links.copyUrl')}
                </button>
              </td>
              <td>{formatTime(l.created)}</td>
              <td>
                {l.active ? t('links.active') : t('links.inactive')}{' '}
                {manage && (
                  <button type="button" className={l.active ? 'danger' : 'secondary'} disabled={busy} onClick={() => void setActive(l, !l.active)}>
                    {l.active ? t('links.deactivate') : t('links.activate')}
                  </button>
                )}
              </td>
            </tr>
          )}
        />
      </section>
      <section aria-labelledby="products-title">
        <h2 id="products-title">{t('links.products')}</h2>
        {manage && (
          <form className="panel" onSubmit={createProduct} aria-labelledby="new-product-title">
            <h3 id="new-product-title">{t('links.newProduct')}</h3>
            <Field id="product-name" label={t('links.productName')}>
              <input id="product-name" required maxLength={250} value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field id="product-currency" label={t('links.currency')}>
              <input
                id="product-currency"
                required
                pattern="[A-Za-z]{3}"
                maxLength={3}
                value={currency}
                onChange={(e) => setCurrency(e.target.value.toUpperCase())}
              />
            </Field>
            <Field id="product-price" label={t('links.price')} hint={t('links.priceHint')}>
              <input
                id="product-price"
                required
                inputMode="decimal"
                aria-describedby="product-price-hint"
                value={price}
                onChange={(e) => setPrice(e.target.value)}
              />
            </Field>
            <button type="submit" disabled={busy || toMinor(price, currency) === ''}>
              {t('links.createProduct')}
            </button>
          </form>
        )}
        <ModeTable
          rows={products.data?.data}
          what={t('links.products.loading')}
          emptyWhat={t('links.products.none')}
          mode={place.mode}
          columns={[t('links.col.product'), t('links.col.price'), t('links.col.created')]}
          row={(p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>{p.default_price ? formatMoney(p.default_price.unit_amount, p.default_price.currency.toUpperCase(), undefined) : '—'}</td>
              <td>{formatTime(p.created)}</td>
            </tr>
          )}
        />
      </section>
    </>
  );
}

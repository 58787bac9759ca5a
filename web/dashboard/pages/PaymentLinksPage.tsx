import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type List } from '../api';
import { ErrorNote, Field, ModeTable } from '../components';
import { formatMoney, formatTime, toMinor } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { useT } from '../i18n';

interface Product {
  id: string;
  name: string;
  active: boolean;
  default_price: { id: string; currency: string; unit_amount: number } | null;
  created: number;
}

interface PaymentLink {
  id: string;
  url: string;
  active: boolean;
  currency: string;
  amount_total: number;
  line_items: Array<{ name: string; quantity: number }>;
  created: number;
}

/** Products with a price, and payment links made of them: create, copy the URL, deactivate. */
export function PaymentLinksPage({ base, place }: PageScope) {
  const t = useT();
  const products = useLoad(() => api<List<Product>>('GET', `/accounts${base}/products?limit=100`), base);
  const links = useLoad(() => api<List<PaymentLink>>('GET', `/accounts${base}/payment-links?limit=100`), base);
  const manage = can(place.account.role, 'payment_links.manage');
  const { busy, error, notice, act } = useAction();
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState(place.account.default_currency.toUpperCase());
  const [price, setPrice] = useState('');
  const [quantities, setQuantities] = useState<Record<string, string>>({});


  const createProduct = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await api('POST', `/accounts${base}/products`, {
        name: name.trim(),
        default_price_data: { currency: currency.toLowerCase(), unit_amount: Number(toMinor(price, currency)) },
      });
      setName('');
      setPrice('');
      await products.reload();
      return t('links.productCreated', { name: name.trim() });
    });
  };

  const priced = (products.data?.data ?? []).filter((p) => p.active && p.default_price);
  const createLink = (event: FormEvent) => {
    event.preventDefault();
    const items = priced
      .map((p) => ({ price: p.default_price!.id, quantity: Number(quantities[p.id] ?? 0) }))
      .filter((item) => item.quantity > 0);
    void act(async () => {
      await api('POST', `/accounts${base}/payment-links`, { line_items: items });
      setQuantities({});
      await links.reload();
      return t('links.linkCreated');
    });
  };

  const setActive = (link: PaymentLink, active: boolean) =>
    act(async () => {
      await api('POST', `/accounts${base}/payment-links/${link.id}`, { active });
      await links.reload();
      return active ? t('links.activated') : t('links.deactivated');
    });

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
                {priced.map((p) => (
                  <Field key={p.id} id={`qty-${p.id}`} label={t('links.quantityOf', { name: p.name, price: formatMoney(p.default_price!.unit_amount, p.default_price!.currency.toUpperCase(), undefined) })}>
                    <input
                      id={`qty-${p.id}`}
                      type="number"
                      min={0}
                      max={999}
                      value={quantities[p.id] ?? '0'}
                      onChange={(e) => setQuantities({ ...quantities, [p.id]: e.target.value })}
                    />
                  </Field>
                ))}
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
                  <td>{l.line_items.map((i) => t('links.item', { quantity: i.quantity, name: i.name })).join(', ')}</td>
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
              <input id="product-currency" required pattern="[A-Za-z]{3}" maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />
            </Field>
            <Field id="product-price" label={t('links.price')} hint={t('links.priceHint')}>
              <input id="product-price" required inputMode="decimal" aria-describedby="product-price-hint" value={price} onChange={(e) => setPrice(e.target.value)} />
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

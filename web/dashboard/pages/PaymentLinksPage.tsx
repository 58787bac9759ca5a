import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/permissions';
import { api, type List } from '../api';
import { ErrorNote, Field, ModeTable } from '../components';
import { formatMoney, formatTime, toMinor } from '../format';
import type { PageScope } from '../Layout';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

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
      return `Product “${name.trim()}” created.`;
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
      return 'Payment link created.';
    });
  };

  const setActive = (link: PaymentLink, active: boolean) =>
    act(async () => {
      await api('POST', `/accounts${base}/payment-links/${link.id}`, { active });
      await links.reload();
      return active ? 'Link activated.' : 'Link deactivated: its URL no longer opens a checkout.';
    });

  const copy = (link: PaymentLink) =>
    act(async () => {
      await navigator.clipboard.writeText(link.url);
      return 'Link URL copied.';
    });

  return (
    <>
      <h1>Payment links</h1>
      <ErrorNote error={error ?? products.error ?? links.error} />
      {notice && (
        <p role="status" className="result">
          {notice}
        </p>
      )}
      <section aria-labelledby="links-title">
        <h2 id="links-title">Links</h2>
        {manage && (
          <form className="panel" onSubmit={createLink} aria-labelledby="new-link-title">
            <h3 id="new-link-title">New payment link</h3>
            {priced.length === 0 ? (
              <p>Create a product with a price first.</p>
            ) : (
              <>
                {priced.map((p) => (
                  <Field key={p.id} id={`qty-${p.id}`} label={`Quantity of ${p.name} (${formatMoney(p.default_price!.unit_amount, p.default_price!.currency.toUpperCase(), undefined)})`}>
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
                  Create payment link
                </button>
              </>
            )}
          </form>
        )}
        <ModeTable
          rows={links.data?.data}
          what="payment links"
          emptyWhat="payment links"
          mode={place.mode}
          columns={['Items', 'Total', 'URL', 'Created', 'State']}
          row={(l) => (
                <tr key={l.id}>
                  <td>{l.line_items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}</td>
                  <td>{formatMoney(l.amount_total, l.currency.toUpperCase(), undefined)}</td>
                  <td>
                    <a href={l.url} className="mono" data-testid="link-url">
                      {l.url}
                    </a>{' '}
                    <button type="button" className="secondary" onClick={() => void copy(l)} aria-label={`Copy URL of ${l.url}`}>
                      Copy URL
                    </button>
                  </td>
                  <td>{formatTime(l.created)}</td>
                  <td>
                    {l.active ? 'Active' : 'Inactive'}{' '}
                    {manage && (
                      <button type="button" className={l.active ? 'danger' : 'secondary'} disabled={busy} onClick={() => void setActive(l, !l.active)}>
                        {l.active ? 'Deactivate' : 'Activate'}
                      </button>
                    )}
                  </td>
                </tr>
          )}
        />
      </section>
      <section aria-labelledby="products-title">
        <h2 id="products-title">Products</h2>
        {manage && (
          <form className="panel" onSubmit={createProduct} aria-labelledby="new-product-title">
            <h3 id="new-product-title">New product</h3>
            <Field id="product-name" label="Product name">
              <input id="product-name" required maxLength={250} value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <Field id="product-currency" label="Currency">
              <input id="product-currency" required pattern="[A-Za-z]{3}" maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value.toUpperCase())} />
            </Field>
            <Field id="product-price" label="Price" hint="In the currency's unit, e.g. 12.50">
              <input id="product-price" required inputMode="decimal" aria-describedby="product-price-hint" value={price} onChange={(e) => setPrice(e.target.value)} />
            </Field>
            <button type="submit" disabled={busy || toMinor(price, currency) === ''}>
              Create product
            </button>
          </form>
        )}
        <ModeTable
          rows={products.data?.data}
          what="products"
          emptyWhat="products"
          mode={place.mode}
          columns={['Product', 'Price', 'Created']}
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

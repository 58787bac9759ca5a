import { ErrorNote, Loading, StatusBadge } from '../components';
import { formatMoney, formatTime } from '../format';
import type { PageScope } from '../Layout';
import { Link, useLocation } from '../router';
import { useApiQuery } from '../queries';
import { useT, type DashboardMessageKey } from '../i18n';

export interface SearchHit {
  kind: string;
  id: string;
  created: number;
  amount: number | null;
  currency: string | null;
  status: string | null;
  customer_email: string | null;
  detail: string | null;
}

/**
 * Where each kind of hit leads and what its group is called. A kind the server adds and this table
 * does not know yet is still listed, under its own name, without a link.
 */
const kindPages: Record<string, { title: DashboardMessageKey; href: (hit: SearchHit) => string }> = {
  payment: { title: 'search.kind.payment', href: (hit) => `payments/${hit.id}` },
  checkout_session: { title: 'search.kind.checkout_session', href: (hit) => `sessions/${hit.id}` },
  refund: { title: 'search.kind.refund', href: (hit) => `payments/${hit.detail}` },
  payment_link: { title: 'search.kind.payment_link', href: () => 'links' },
  customer: { title: 'search.kind.customer', href: (hit) => `customers/${hit.id}` },
  dispute: { title: 'search.kind.dispute', href: (hit) => `disputes/${hit.id}` },
};

/** The search box's results, one group per kind, newest first within each. */
export function SearchPage({ base }: PageScope) {
  const t = useT();
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const found = useApiQuery<{ data: SearchHit[] }>(`/accounts${base}/search?${new URLSearchParams({ q })}`);
  // Under a new term, the last term's hits are not shown while this one's are read: they would sit
  // under a heading they do not answer, and move when the answer comes, under the pointer.
  const results = found.previous ? null : found.data;
  const groups = new Map<string, SearchHit[]>();
  for (const hit of results?.data ?? []) groups.set(hit.kind, [...(groups.get(hit.kind) ?? []), hit]);

  return (
    <>
      <h1>{t('search.title', { q })}</h1>
      <p className="hint">{t('search.help')}</p>
      <ErrorNote error={found.error} />
      {found.loading && !results && <Loading what={t('search.results')} />}
      {results && groups.size === 0 && <p role="status">{t('search.none', { q })}</p>}
      {[...groups].map(([kind, hits]) => {
        const page = kindPages[kind];
        return (
          <section key={kind} aria-labelledby={`search-${kind}`}>
            <h2 id={`search-${kind}`}>{page ? t(page.title) : kind}</h2>
            <ul className="search-hits">
              {hits.map((hit) => (
                <li key={hit.id}>
                  {page ? (
                    <Link href={`/dashboard${base}/${page.href(hit)}`}>
                      <code>{hit.id}</code>
                    </Link>
                  ) : (
                    <code>{hit.id}</code>
                  )}
                  {hit.amount !== null && hit.currency && <span>{formatMoney(hit.amount, hit.currency.toUpperCase(), undefined)}</span>}
                  {hit.status && <StatusBadge status={hit.status} />}
                  {hit.customer_email && <span>{hit.customer_email}</span>}
                  {hit.detail && <span className="hint">{hit.detail}</span>}
                  <span className="hint">{formatTime(hit.created)}</span>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

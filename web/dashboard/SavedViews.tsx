import { useState, type FormEvent } from 'react';
import type { Place } from './Layout';
import { Link } from './router';
import { useT } from './i18n';

interface SavedView {
  name: string;
  /** The filter's query string, without `?`. */
  query: string;
}

/** Views are kept in this browser, per account, mode and list. */
const storageKey = (place: Place, page: string) => `tillpoint.views.${place.account.id}.${place.mode}.${page}`;

function readViews(key: string): SavedView[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is SavedView => typeof v?.name === 'string' && typeof v?.query === 'string') : [];
  } catch {
    return [];
  }
}

/** Named filters of a list: save the current one, open one (a link to its URL), delete one. */
export function SavedViews({ place, page, current, here }: { place: Place; page: string; current: string; here: string }) {
  const t = useT();
  const key = storageKey(place, page);
  const [views, setViews] = useState(() => readViews(key));
  const [name, setName] = useState('');
  const store = (next: SavedView[]) => {
    setViews(next);
    localStorage.setItem(key, JSON.stringify(next));
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    store([...views.filter((v) => v.name !== trimmed), { name: trimmed, query: current }]);
    setName('');
  };

  return (
    <section className="saved-views" aria-labelledby="saved-views-title">
      <h2 id="saved-views-title" className="small-heading">
        {t('views.title')}
      </h2>
      {views.length === 0 ? (
        <p className="hint">{t('views.none')}</p>
      ) : (
        <ul>
          {views.map((view) => (
            <li key={view.name}>
              <Link href={`${here}${view.query ? `?${view.query}` : ''}`} aria-current={view.query === current ? 'true' : undefined}>
                {view.name}
              </Link>
              <button type="button" className="link-button" onClick={() => store(views.filter((v) => v.name !== view.name))}>
                {t('views.delete', { name: view.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={save} className="inline-form">
        <label htmlFor="view-name">{t('views.name')}</label>
        <input id="view-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
        <button type="submit" className="secondary">
          {t('views.save')}
        </button>
      </form>
    </section>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { navigate, useLocation } from './router';
import { useT } from './i18n';

/** Whether a key press lands in something the person is typing into. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The one search box of every page; `/` anywhere outside a field puts the cursor in it. */
export function SearchBox({ here }: { here: string }) {
  const t = useT();
  const { path, query } = useLocation();
  const onSearchPage = path === `${here}/search`;
  const [text, setText] = useState(onSearchPage ? (query.get('q') ?? '') : '');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    if (q) navigate(`${here}/search?${new URLSearchParams({ q })}`);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: form role=search is the search landmark every supported browser knows; <search> is too new.
    <form role="search" className="search-box" onSubmit={submit}>
      <label htmlFor="dashboard-search" className="visually-hidden">
        {t('search.label')}
      </label>
      <input
        id="dashboard-search"
        ref={input}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('search.placeholder')}
        aria-keyshortcuts="/"
        maxLength={200}
        autoComplete="off"
      />
    </form>
  );
}

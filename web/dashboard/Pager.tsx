import { useState } from 'react';
import { useT } from './i18n';

/** A stack of cursors for newest-first lists: `after` is the `starting_after` of the page shown. */
export function useCursorStack() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    after: cursors.at(-1),
    atStart: cursors.length === 0,
    next: (lastId: string) => setCursors([...cursors, lastId]),
    previous: () => setCursors(cursors.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

/** Previous / next page buttons under a list. */
export function Pager({ atStart, hasMore, onPrevious, onNext }: { atStart: boolean; hasMore: boolean; onPrevious: () => void; onNext: () => void }) {
  const t = useT();
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={atStart} onClick={onPrevious}>
        {t('pager.previous')}
      </button>
      <button type="button" className="secondary" disabled={!hasMore} onClick={onNext}>
        {t('pager.next')}
      </button>
    </div>
  );
}

import { useState } from 'react';

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
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={atStart} onClick={onPrevious}>
        Previous page
      </button>
      <button type="button" className="secondary" disabled={!hasMore} onClick={onNext}>
        Next page
      </button>
    </div>
  );
}

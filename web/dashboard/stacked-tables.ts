import { useEffect, type RefObject } from 'react';

/**
 * On a phone the dashboard's tables (`table.data`) are drawn as stacked rows: one card per row,
 * each cell on a line of its own after its column's name (styles.css). The column's name comes from
 * the cell's `data-label`, copied here from the table's column headings, so the pages keep writing
 * plain tables. A table drawn as blocks can lose its table semantics in some browsers, so every part
 * also gets its table role explicitly: a screen reader still reads rows, columns and headings.
 */
export function labelTableCells(root: ParentNode) {
  for (const table of root.querySelectorAll<HTMLTableElement>('table.data')) {
    table.setAttribute('role', 'table');
    const heads = [...(table.tHead?.rows[0]?.cells ?? [])];
    const names: string[] = [];
    for (const head of heads) {
      for (let i = 0; i < head.colSpan; i++) names.push(head.textContent?.trim() ?? '');
    }
    for (const group of [table.tHead, ...table.tBodies, table.tFoot]) group?.setAttribute('role', 'rowgroup');
    for (const row of table.rows) {
      row.setAttribute('role', 'row');
      let column = 0;
      for (const cell of row.cells) {
        const isHead = cell.tagName === 'TH';
        const scope = cell.getAttribute('scope');
        cell.setAttribute('role', isHead ? (scope === 'row' || (!scope && row.parentElement !== table.tHead) ? 'rowheader' : 'columnheader') : 'cell');
        const name = cell.colSpan === 1 ? names[column] : undefined;
        if (!isHead && name && cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        if (!isHead && !name) cell.removeAttribute('data-label');
        column += cell.colSpan;
      }
    }
  }
}

/** Labels the tables under an element, and again whenever its content changes (a page, a list, a language). */
export function useTableCellLabels(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    labelTableCells(root);
    // Only rows and text are watched: the labels this writes are attributes, so writing them does not call it again.
    const observer = new MutationObserver(() => labelTableCells(root));
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [ref]);
}

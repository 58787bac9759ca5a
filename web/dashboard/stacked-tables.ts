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
    const head = table.querySelector(':scope > thead');
    const span = (cell: Element) => Math.max(1, Number(cell.getAttribute('colspan') ?? 1) || 1);
    const names: string[] = [];
    for (const heading of head?.querySelector(':scope > tr')?.children ?? []) {
      for (let i = 0; i < span(heading); i++) names.push(heading.textContent?.trim() ?? '');
    }
    for (const group of table.querySelectorAll(':scope > thead, :scope > tbody, :scope > tfoot')) group.setAttribute('role', 'rowgroup');
    for (const row of table.querySelectorAll(':scope > * > tr')) {
      row.setAttribute('role', 'row');
      let column = 0;
      for (const cell of row.children) {
        const isHead = cell.tagName === 'TH';
        const scope = cell.getAttribute('scope');
        cell.setAttribute('role', isHead ? (scope === 'row' || (!scope && row.parentElement !== head) ? 'rowheader' : 'columnheader') : 'cell');
        const name = span(cell) === 1 ? names[column] : undefined;
        if (!isHead && name && cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        if (!isHead && !name) cell.removeAttribute('data-label');
        column += span(cell);
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

/**
 * Writes of a transaction whose results nobody reads (an audit line, an event and its webhook
 * deliveries, a new row), held back and sent in front of the transaction's next statement, or at
 * its end, as data-modifying CTEs of one statement: fewer round trips, same atomicity.
 *
 * The statements of one SQL statement share a snapshot: a statement never sees the writes carried
 * in front of it. So a held write rides along only with a statement that touches none of the
 * tables it writes; otherwise the held writes go first, on their own. A transaction that did
 * nothing but held writes is then one statement, needing no BEGIN and COMMIT at all; if they are
 * all inserts, it may share that statement with other requests' (InsertCoalescer, below).
 */
import { BatchCoalescer, type Lanes, type Statement } from './coalescer';

export type { Statement };

export interface HeldWrite {
  /** One INSERT, UPDATE or DELETE, without a WITH clause of its own; `$n` are its parameters. */
  text: string;
  params: unknown[];
  /** The tables it writes. It must read none that another held write writes. */
  tables: readonly string[];
}

/** Our SQL texts are a small, fixed set: what was read off one is kept (bounded). */
const tablesSeen = new Map<string, Set<string>>();

/** Tables a statement names (FROM, JOIN, INTO, UPDATE): enough for our own SQL, which uses no views. */
function tablesOf(text: string): Set<string> {
  const seen = tablesSeen.get(text);
  if (seen) return seen;
  if (tablesSeen.size >= 1000) tablesSeen.clear();
  const names = new Set<string>();
  tablesSeen.set(text, names);
  for (const match of text.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?(?:\."?([a-z_][a-z0-9_]*))?/gi)) {
    names.add(match[1]!.toLowerCase());
    if (match[2]) names.add(match[2].toLowerCase());
  }
  return names;
}

const renumbered = new Map<string, string>();

/** `text` with its parameters $1… moved up by `offset` (kept, like tablesOf, per text). */
function renumber(text: string, offset: number): string {
  if (offset === 0) return text;
  const key = `${offset}:${text}`;
  let out = renumbered.get(key);
  if (out === undefined) {
    if (renumbered.size >= 1000) renumbered.clear();
    out = text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    renumbered.set(key, out);
  }
  return out;
}

const isInsert = (write: HeldWrite) => /^\s*insert\b/i.test(write.text);

/** An INSERT of one row of parameters only, `… VALUES ($1, …, $n)`: its head and n, or null. */
function oneRowInsert(text: string): { head: string; count: number } | null {
  const match = /^\s*(insert\s+into\s+[a-z_][a-z0-9_.]*\s*\([^)]*\)\s*values)\s*\(([^)]*)\)\s*$/i.exec(text);
  if (!match) return null;
  const placeholders = match[2]!.split(',').map((part) => part.trim());
  if (!placeholders.every((placeholder, i) => placeholder === `$${i + 1}`)) return null;
  return { head: match[1]!, count: placeholders.length };
}

const rowsInserted = new Map<string, ReturnType<typeof oneRowInsert>>();

/**
 * The same one-row INSERT held several times (the checkout sessions of requests under way at once,
 * their audit lines) as one INSERT of all those rows, where the first of them stood: one row
 * source and one executor node for the lot, not one each. Statements of one SQL statement share
 * its snapshot and see none of each other's rows, so their order among themselves changes nothing.
 */
function mergeRows(writes: readonly HeldWrite[]): HeldWrite[] {
  const merged = new Map<string, HeldWrite>();
  const out: HeldWrite[] = [];
  for (const write of writes) {
    let shape = rowsInserted.get(write.text);
    if (shape === undefined) {
      if (rowsInserted.size >= 1000) rowsInserted.clear();
      shape = oneRowInsert(write.text);
      rowsInserted.set(write.text, shape);
    }
    const first = shape ? merged.get(write.text) : undefined;
    if (!shape || !first) {
      const copy = { ...write, params: [...write.params] };
      out.push(copy);
      if (shape) merged.set(write.text, copy);
      continue;
    }
    const from = first.params.length;
    const row = Array.from({ length: shape.count }, (_, i) => `$${from + i + 1}`).join(', ');
    first.text = `${first.text}, (${row})`;
    first.params.push(...write.params);
  }
  return out;
}

/** `writes` (which one batch admits) as one statement. */
export function statementOf(writes: readonly HeldWrite[]): Statement {
  const batch = new WriteBatch();
  for (const write of mergeRows(writes)) batch.hold(write);
  return batch.alone();
}

/**
 * Transactions that are held inserts alone (a checkout session and its audit line, say), from
 * requests under way at once, sent as one statement, as BatchCoalescer (coalescer.ts) sends: a
 * refused one fails alone. A transaction with any other write is sent alone at once.
 */
export class InsertCoalescer {
  private readonly coalescer: BatchCoalescer<HeldWrite[], void>;

  constructor(
    private readonly send: (statement: Statement) => Promise<unknown>,
    lanes: Lanes,
    unreachable: (error: unknown) => boolean,
  ) {
    this.coalescer = new BatchCoalescer<HeldWrite[], void>(
      async (transactions) => {
        // In the order of their texts, so the same kinds of transaction make the same statement
        // text (one prepared statement), whatever order they came in.
        const sorted = transactions.map((writes) => ({ writes, kind: writes.map((write) => write.text).join('\n') }));
        sorted.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
        await this.send(statementOf(sorted.flatMap(({ writes }) => writes)));
        return transactions.map(() => undefined);
      },
      lanes,
      unreachable,
    );
  }

  async run(writes: HeldWrite[]): Promise<void> {
    if (!writes.every(isInsert)) {
      await this.send(statementOf(writes));
      return;
    }
    await this.coalescer.run(writes);
  }
}

export class WriteBatch {
  private held: HeldWrite[] = [];

  get size(): number {
    return this.held.length;
  }

  /**
   * Whether `write` may join the held writes: not when one of them and it change the same table
   * and either is not an INSERT (one statement must not change a row twice).
   */
  admits(write: HeldWrite): boolean {
    if (this.held.length === 0) return true;
    return !this.held.some((other) => other.tables.some((table) => write.tables.includes(table)) && !(isInsert(other) && isInsert(write)));
  }

  hold(write: HeldWrite): void {
    this.held.push(write);
  }

  /**
   * The held writes as CTEs in front of `main` (parameters after main's), or null when `main`
   * touches a table they write (or is not a plain statement) and they must go first on their own.
   * Taking them empties the batch.
   */
  carriedBy(main: Statement): Statement | null {
    if (this.held.length === 0) return main;
    const trimmed = main.text.trimStart();
    const head = /^(with|select|insert|update|delete)\b/i.exec(trimmed)?.[1]?.toLowerCase();
    if (!head || /^with\s+recursive\b/i.test(trimmed)) return null;
    const touched = tablesOf(trimmed);
    if (this.held.some((write) => write.tables.some((table) => touched.has(table)))) return null;
    const { ctes, params } = this.take(main.params.length);
    return head === 'with'
      ? { text: `WITH ${ctes}, ${trimmed.slice(4)}`, params: [...main.params, ...params] }
      : { text: `WITH ${ctes} ${trimmed}`, params: [...main.params, ...params] };
  }

  /** The held writes, taken out; empties the batch. */
  drain(): HeldWrite[] {
    const held = this.held;
    this.held = [];
    return held;
  }

  /** The held writes as one statement of their own; empties the batch. */
  alone(): Statement {
    const last = this.held.pop()!;
    if (this.held.length === 0) return { text: last.text, params: last.params };
    const { ctes, params } = this.take(0);
    return { text: `WITH ${ctes} ${renumber(last.text, params.length)}`, params: [...params, ...last.params] };
  }

  private take(offset: number): { ctes: string; params: unknown[] } {
    const params: unknown[] = [];
    const ctes = this.held
      .map((write, i) => {
        const text = renumber(write.text, offset + params.length);
        params.push(...write.params);
        return `held_${i + 1} AS (${text})`;
      })
      .join(', ');
    this.held = [];
    return { ctes, params };
  }
}

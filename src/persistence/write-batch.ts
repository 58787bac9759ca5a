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
import { placeholders } from './rows';

export type { Statement };

export interface HeldWrite {
  /** One INSERT, UPDATE or DELETE, without a WITH clause of its own; `$n` are its parameters. */
  text: string;
  params: unknown[];
  /** The tables it writes. It must read none that another held write writes. */
  tables: readonly string[];
}

/**
 * `read(text)`, kept per text: our SQL texts are a small, fixed set, so what was read off one is
 * kept (bounded: past 1,000 texts it starts again).
 */
function keptPerText<V>(read: (text: string) => V): (text: string) => V {
  const kept = new Map<string, V>();
  return (text) => {
    if (kept.has(text)) return kept.get(text)!;
    if (kept.size >= 1000) kept.clear();
    const value = read(text);
    kept.set(text, value);
    return value;
  };
}

/** Tables a statement names (FROM, JOIN, INTO, UPDATE): enough for our own SQL, which uses no views. */
const tablesOf = keptPerText((text) => {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?(?:\."?([a-z_][a-z0-9_]*))?/gi)) {
    names.add(match[1]!.toLowerCase());
    if (match[2]) names.add(match[2].toLowerCase());
  }
  return names;
});

/** `key` = `offset:text`: the text with its parameters $1… moved up by the offset. */
const renumbered = keptPerText((key) => {
  const colon = key.indexOf(':');
  const offset = Number(key.slice(0, colon));
  return key.slice(colon + 1).replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
});

/** `text` with its parameters $1… moved up by `offset` (kept, like tablesOf, per text). */
function renumber(text: string, offset: number): string {
  return offset === 0 ? text : renumbered(`${offset}:${text}`);
}

const isInsert = (write: HeldWrite) => /^\s*insert\b/i.test(write.text);

/** How many parameters an INSERT of one row of parameters only (`… VALUES ($1, …, $n)`) takes; else null. */
const oneRowInsert = keptPerText((text) => {
  const values = /^\s*insert\s+into\s+[a-z_][a-z0-9_.]*\s*\([^)]*\)\s*values\s*\(([^)]*)\)\s*$/i.exec(text)?.[1];
  if (values === undefined) return null;
  const count = values.split(',').length;
  return values.replace(/\s+/g, '') === placeholders(1, count).replace(/\s+/g, '') ? count : null;
});

/**
 * The same one-row INSERT held several times (the checkout sessions of requests under way at once,
 * their audit lines) as one INSERT of all those rows, where the first of them stood: one row
 * source and one executor node for the lot, not one each. Statements of one SQL statement share
 * its snapshot and see none of each other's rows, so their order among themselves changes nothing.
 */
function mergeRows(writes: readonly HeldWrite[]): readonly HeldWrite[] {
  if (writes.length < 2) return writes;
  // Each write in its place, and the rows of one insert together where the first of them stood.
  const out: Array<HeldWrite | HeldWrite[]> = [];
  const rows = new Map<string, HeldWrite[]>();
  for (const write of writes) {
    if (oneRowInsert(write.text) === null) {
      out.push(write);
      continue;
    }
    let same = rows.get(write.text);
    if (!same) {
      rows.set(write.text, (same = []));
      out.push(same);
    }
    same.push(write);
  }
  return out.map((entry) => (Array.isArray(entry) ? insertOfRows(entry) : entry));
}

/** One-row inserts of one text as one insert of all their rows. */
function insertOfRows(same: HeldWrite[]): HeldWrite {
  const [first] = same;
  if (same.length === 1) return first!;
  const count = oneRowInsert(first!.text)!;
  const more = same.slice(1).map((_, i) => `, (${placeholders(count * (i + 1) + 1, count)})`);
  return { ...first!, text: `${first!.text}${more.join('')}`, params: same.flatMap((write) => write.params) };
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

/**
 * Work of one kind from requests under way at once, gathered into one statement: while `inFlight`
 * groups are on their way, the next ones wait and then go together, up to `most` in one group.
 * Nothing waits when nothing is on its way, so a lone request is not delayed; under load, many
 * requests share one round trip, one parse and one commit (docs/decisions.md).
 */
import { arrivalHere, asArrivedAt } from './arrival-order';

/** One SQL statement: its text, with `$n` placeholders, and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

export interface Lanes {
  /** Groups on their way at once. */
  inFlight: number;
  /** The most items in one group. */
  most: number;
}

export class Coalescer<T> {
  private readonly waiting: Array<{ item: T; at: number | undefined }> = [];
  private sending = 0;

  /** `sendGroup` settles every item of its group itself; what it throws is dropped. */
  constructor(
    private readonly sendGroup: (group: T[]) => Promise<void>,
    private readonly lanes: Lanes,
  ) {}

  add(item: T): void {
    this.waiting.push({ item, at: arrivalHere() });
    this.pump();
  }

  private pump(): void {
    while (this.sending < this.lanes.inFlight && this.waiting.length > 0) {
      const taken = this.waiting.splice(0, this.lanes.most);
      const group = taken.map((waiting) => waiting.item);
      this.sending += 1;
      // The group waits for a connection as its earliest request would (arrival-order.ts), not as
      // whichever request happens to send it.
      const arrivals = taken.flatMap((waiting) => (waiting.at === undefined ? [] : [waiting.at]));
      const send = () => this.sendGroup(group);
      void (arrivals.length > 0 ? asArrivedAt(Math.min(...arrivals), send) : send())
        .catch(() => undefined)
        .finally(() => {
          this.sending -= 1;
          this.pump();
        });
    }
  }
}

/**
 * Reads by key, gathered: the keys asked for while a read is on its way are read together next,
 * in one statement (`WHERE id = ANY($1)`). Every read is sent after it was asked for, so none is
 * answered from an older one. A failed read fails every caller of its group.
 */
export class ReadCoalescer<K, V> {
  private readonly coalescer: Coalescer<{ key: K; found: (value: V | null) => void; failed: (error: unknown) => void }>;

  constructor(read: (keys: K[]) => Promise<Map<K, V>>, lanes: Lanes) {
    this.coalescer = new Coalescer(async (group) => {
      try {
        const found = await read([...new Set(group.map((waiting) => waiting.key))]);
        for (const waiting of group) waiting.found(found.get(waiting.key) ?? null);
      } catch (error) {
        for (const waiting of group) waiting.failed(error);
      }
    }, lanes);
  }

  get(key: K): Promise<V | null> {
    return new Promise((found, failed) => this.coalescer.add({ key, found, failed }));
  }
}

interface Waiting<I, R> {
  item: I;
  done: (result: R) => void;
  failed: (error: unknown) => void;
}

/**
 * Writes of one kind, each atomic by itself, from requests under way at once, sent together by
 * `send(items)` (one statement: it commits them all or none), which gives each item's result. If
 * it fails for anything but a lost database (one of them breaks a constraint, divides by zero, a
 * deadlock), nothing was written: each is sent again on its own, so only its own caller sees its
 * error. Two that share a `key` (one session) never go together: one statement must not change a
 * row twice; the later goes on its own after the others.
 */
export class BatchCoalescer<I, R> {
  private readonly coalescer: Coalescer<Waiting<I, R>>;

  constructor(
    private readonly send: (items: I[]) => Promise<R[]>,
    lanes: Lanes,
    private readonly unreachable: (error: unknown) => boolean,
    private readonly key: ((item: I) => string) | null = null,
  ) {
    this.coalescer = new Coalescer((group) => this.sendGroup(group), lanes);
  }

  /** `item`'s result, once the statement that carried it committed. */
  run(item: I): Promise<R> {
    return new Promise((done, failed) => this.coalescer.add({ item, done, failed }));
  }

  private async sendGroup(group: Array<Waiting<I, R>>): Promise<void> {
    const keys = new Set<string>();
    const key = this.key;
    const together = key ? group.filter(({ item }) => !keys.has(key(item)) && keys.add(key(item))) : group;
    const alone = group.filter((waiting) => !together.includes(waiting));
    const eachAlone = (list: Array<Waiting<I, R>>) =>
      Promise.all(list.map((waiting) => this.send([waiting.item]).then(([result]) => waiting.done(result as R), waiting.failed)));
    try {
      const results = await this.send(together.map((waiting) => waiting.item));
      together.forEach((waiting, i) => waiting.done(results[i] as R));
    } catch (error) {
      if (together.length === 1 || this.unreachable(error)) together.forEach((waiting) => waiting.failed(error));
      else await eachAlone(together);
    }
    await eachAlone(alone);
  }
}

/**
 * Writes of one kind (a payment's intent, a processor's outcome) sent together as one set-based
 * statement (`statement(items)`: one text for any number of items, so PostgreSQL plans it once,
 * not once per group size), which returns a row per item: `n` its place in the list, `result`
 * its result. Sent as BatchCoalescer sends.
 */
export class StatementCoalescer<I> extends BatchCoalescer<I, unknown> {
  constructor(
    query: (text: string, params: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>,
    statement: (items: I[]) => Statement,
    key: (item: I) => string,
    lanes: Lanes,
    unreachable: (error: unknown) => boolean,
  ) {
    super(
      async (items) => {
        const { text, params } = statement(items);
        const { rows } = await query(text, params);
        const results = new Array<unknown>(items.length);
        for (const row of rows) results[Number(row.n)] = row.result;
        return results;
      },
      lanes,
      unreachable,
      key,
    );
  }
}

/**
 * Work of one kind from requests under way at once, gathered into one statement: while `inFlight`
 * groups are on their way, the next ones wait and then go together, up to `most` in one group.
 * Nothing waits when nothing is on its way, so a lone request is not delayed; under load, many
 * requests share one round trip, one parse and one commit (docs/decisions.md).
 */
import { arrivalHere, asArrivedAt } from './arrival-order';

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

/** A statement for several items at once: one row per item, `n` its place in the list and `result` its result. */
export interface ItemsStatement {
  text: string;
  params: unknown[];
}

/**
 * Writes of one kind (a payment's intent, a processor's outcome), each atomic by itself, from
 * requests under way at once, sent as one set-based statement (`statement(items)`): one text for
 * any number of items, so PostgreSQL plans it once, not once per group size. The statement commits
 * them all or none. If it fails for anything but a lost database (one of them divides by zero, a
 * deadlock), each is sent again on its own, so only its own caller sees its error. Two that share a
 * `key` (one session) never share a statement: a statement must not change a row twice.
 */
export class StatementCoalescer<I> {
  private readonly coalescer: Coalescer<{ item: I; done: (result: unknown) => void; failed: (error: unknown) => void }>;

  constructor(
    private readonly query: (text: string, params: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>,
    private readonly statement: (items: I[]) => ItemsStatement,
    private readonly key: (item: I) => string,
    lanes: Lanes,
    private readonly unreachable: (error: unknown) => boolean,
  ) {
    this.coalescer = new Coalescer((group) => this.sendGroup(group), lanes);
  }

  /** `item`'s result, once its statement committed. */
  run(item: I): Promise<unknown> {
    return new Promise((done, failed) => this.coalescer.add({ item, done, failed }));
  }

  private async send(items: I[]): Promise<unknown[]> {
    const { text, params } = this.statement(items);
    const { rows } = await this.query(text, params);
    const results = new Array<unknown>(items.length);
    for (const row of rows) results[Number(row.n)] = row.result;
    return results;
  }

  private async sendGroup(group: Array<{ item: I; done: (result: unknown) => void; failed: (error: unknown) => void }>): Promise<void> {
    const keys = new Set<string>();
    const together = group.filter(({ item }) => !keys.has(this.key(item)) && keys.add(this.key(item)));
    const alone = group.filter((waiting) => !together.includes(waiting));
    const eachAlone = (list: typeof group) =>
      Promise.all(list.map((waiting) => this.send([waiting.item]).then(([result]) => waiting.done(result), waiting.failed)));
    try {
      const results = await this.send(together.map((waiting) => waiting.item));
      together.forEach((waiting, i) => waiting.done(results[i]));
    } catch (error) {
      if (together.length === 1 || this.unreachable(error)) together.forEach((waiting) => waiting.failed(error));
      // Nothing was written: each again on its own, so only the one refused fails.
      else await eachAlone(together);
    }
    await eachAlone(alone);
  }
}

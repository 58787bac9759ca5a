/**
 * Work of one kind from requests under way at once, gathered into one statement: while `inFlight`
 * groups are on their way, the next ones wait and then go together, up to `most` in one group.
 * Nothing waits when nothing is on its way, so a lone request is not delayed; under load, many
 * requests share one round trip, one parse and one commit (docs/decisions.md). A full group has
 * nothing to gain from waiting, so it goes at once, and so does the next group when the one on its
 * way has stalled (a row lock held elsewhere), both within `Lanes.atMost`.
 */
import { performance } from 'node:perf_hooks';
import { arrivalHere, asArrivedAt } from './arrival-order';

/** One SQL statement: its text, with `$n` placeholders, and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

export interface Lanes {
  /** Groups on their way at once before the next waits to be gathered. */
  inFlight: number;
  /** The most items in one group. */
  most: number;
  /**
   * The most groups on their way at once, counting those that went without waiting: a full group,
   * or one sent because every group on its way has been so for `stalledAfterMs`. `inFlight` unless
   * given.
   */
  atMost?: number;
  /** After this long on its way, a group no longer holds the next one back (none: never). */
  stalledAfterMs?: number;
}

export class Coalescer<T> {
  private readonly waiting: Array<{ item: T; at: number | undefined }> = [];
  /** When each group on its way was sent (performance.now()), oldest first. */
  private readonly sentAt: number[] = [];
  private stallTimer: NodeJS.Timeout | null = null;

  /** `sendGroup` settles every item of its group itself; what it throws is dropped. */
  constructor(
    private readonly sendGroup: (group: T[]) => Promise<void>,
    private readonly lanes: Lanes,
  ) {}

  add(item: T): void {
    this.waiting.push({ item, at: arrivalHere() });
    this.pump();
  }

  /** Whether the next group may go now. */
  private mayGo(): boolean {
    const sending = this.sentAt.length;
    if (sending < this.lanes.inFlight) return true;
    if (sending >= (this.lanes.atMost ?? this.lanes.inFlight)) return false;
    if (this.waiting.length >= this.lanes.most) return true;
    const stalled = this.lanes.stalledAfterMs;
    // sentAt is oldest first: the newest group on its way decides whether all of them have stalled.
    return stalled !== undefined && performance.now() - this.sentAt[sending - 1]! >= stalled;
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.mayGo()) {
      const taken = this.waiting.splice(0, this.lanes.most);
      const group = taken.map((waiting) => waiting.item);
      const sent = performance.now();
      this.sentAt.push(sent);
      // The group waits for a connection as its earliest request would (arrival-order.ts), not as
      // whichever request happens to send it.
      const arrivals = taken.flatMap((waiting) => (waiting.at === undefined ? [] : [waiting.at]));
      const send = () => this.sendGroup(group);
      void (arrivals.length > 0 ? asArrivedAt(Math.min(...arrivals), send) : send())
        .catch(() => undefined)
        .finally(() => {
          this.sentAt.splice(this.sentAt.indexOf(sent), 1);
          this.pump();
        });
    }
    this.watchForStall();
  }

  /**
   * Items wait behind groups on their way: look again once those would count as stalled. Not at
   * `atMost`: only a group coming back lets the next go then, and it looks again itself.
   */
  private watchForStall(): void {
    const stalled = this.lanes.stalledAfterMs;
    const sending = this.sentAt.length;
    if (stalled === undefined || this.stallTimer || this.waiting.length === 0 || sending === 0) return;
    if (sending >= (this.lanes.atMost ?? this.lanes.inFlight)) return;
    const due = this.sentAt[sending - 1]! + stalled - performance.now();
    this.stallTimer = setTimeout(() => {
      this.stallTimer = null;
      this.pump();
    }, Math.max(0, Math.ceil(due)));
    this.stallTimer.unref();
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

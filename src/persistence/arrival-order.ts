import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * Statements wait for a connection in the order their requests arrived, not the order the
 * statements were sent. A payment sends several statements one after another; in a plain first-come
 * queue each of them waits behind the first statements of every request that came in meanwhile, so
 * in a burst every shopper waits for the whole burst. Oldest request first lets the early ones
 * finish early, with the same total work (docs/decisions.md, "Oldest request first").
 */
const arrival = new AsyncLocalStorage<number>();

/**
 * Runs `work` (and everything it starts) as part of a request that arrived at `at`
 * (performance.now()). The runtime hands this to the HTTP server, which enters each request's
 * handler through it.
 */
export function asArrivedAt<T>(at: number, work: () => T): T {
  return arrival.run(at, work);
}

/** When the request under way here arrived, if it entered the arrival context. */
export function arrivalHere(): number | undefined {
  return arrival.getStore();
}

let entered = 0;

/**
 * Requests in arrival order, and the promise hooks of `AsyncLocalStorage` off while none is under
 * way. On Node 20 those hooks make every promise of the process a little dearer, about a tenth of
 * the server's CPU per merchant API call (docs/performance.md), so only the routes whose several
 * statements gain from the order enter it (a payment, a capture, a refund), and the hooks are off
 * while none of those is under way. On Node 24 and later the context costs no hooks either way.
 */
export const requestArrivals = {
  /** Runs `work` (and everything it starts) as part of a request that arrived at `at`, until `leave()`. */
  enter<T>(at: number, work: () => T): T {
    entered += 1;
    return asArrivedAt(at, work);
  },
  /** That request has been answered. */
  leave(): void {
    entered = Math.max(0, entered - 1);
    if (entered === 0) arrival.disable();
  },
};

interface Waiter {
  at: number;
  seq: number;
  admit: () => void;
}

/**
 * At most `size` pieces of work at once (one per pooled connection); the rest wait, the earliest
 * arrival first (work outside any request counts as arriving when it asks). A waiter gives up after
 * `timeoutMs` with `onTimeout()`'s error, as a pool that hands out no connection would.
 */
export class ArrivalOrderGate {
  private free: number;
  private readonly waiting: Waiter[] = [];
  private seq = 0;

  constructor(
    size: number,
    private readonly timeoutMs: number,
    private readonly onTimeout: () => Error,
  ) {
    this.free = size;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const leave = await this.enter();
    try {
      return await work();
    } finally {
      leave();
    }
  }

  /** Takes a place (waiting for one as `run` does); the function returned gives it back (once). */
  async enter(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await this.wait();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next) next.admit();
      else this.free += 1;
    };
  }

  private wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        at: arrival.getStore() ?? performance.now(),
        seq: this.seq++,
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(this.onTimeout());
      }, this.timeoutMs);
      // Sorted by arrival, then by asking order: the first waiter is the next one in.
      let low = 0;
      let high = this.waiting.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        const other = this.waiting[mid]!;
        if (other.at < waiter.at || (other.at === waiter.at && other.seq < waiter.seq)) low = mid + 1;
        else high = mid;
      }
      this.waiting.splice(low, 0, waiter);
    });
  }
}

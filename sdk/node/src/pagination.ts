import type { Page } from './types.js';

/**
 * What `list()` returns: await it for the first page, or iterate it with `for await` to walk every
 * object across pages (each page asked for with `starting_after` = the last id of the one before).
 */
export class ListPromise<T extends { id: string }> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | null = null;

  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>,
    private readonly startingAfter?: string,
  ) {}

  private firstPage(): Promise<Page<T>> {
    return (this.first ??= this.fetchPage(this.startingAfter));
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting the list gives its first page, on purpose.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.firstPage().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.firstPage();
    for (;;) {
      yield* page.data;
      const last = page.data[page.data.length - 1];
      if (!page.has_more || !last) return;
      page = await this.fetchPage(last.id);
    }
  }

  /** Every object across pages, up to `limit` (a guard against walking a huge list by mistake). */
  async toArray(options: { limit: number }): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) {
      if (all.length >= options.limit) break;
      all.push(item);
    }
    return all;
  }
}

/**
 * Cursor pagination, the one way every list of the API pages (design.md §7): newest first, `limit`
 * objects after the object `startingAfter`, and whether more follow.
 */
export interface PageRequest {
  limit: number;
  /** The id of the last object of the previous page. */
  startingAfter?: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * Reads one page by asking the store for one row more than the page holds: the extra row, never
 * shown, tells whether another page exists.
 */
export async function readPage<T>(request: PageRequest, fetch: (request: PageRequest) => Promise<T[]>): Promise<Page<T>> {
  const rows = await fetch({ limit: request.limit + 1, startingAfter: request.startingAfter });
  return { data: rows.slice(0, request.limit), hasMore: rows.length > request.limit };
}

import type { Page, PageRequest } from '../domain/shared/pagination';

/** The `limit` / `starting_after` of a query parsed with `listQuery`, as the domain's page request. */
export function pageRequest(query: { limit: number; starting_after?: string }): PageRequest {
  return { limit: query.limit, startingAfter: query.starting_after };
}

/** Every list answers the same envelope: `{object: 'list', url, has_more, data}`. */
export function listBody<T, V>(url: string, page: Page<T>, view: (item: T) => V) {
  return { object: 'list' as const, url, has_more: page.hasMore, data: page.data.map(view) };
}

import { TillpointError } from '../errors';

/**
 * A merchant API call over its account and mode's limit (design.md §9); counted and decided by
 * `authenticateApiKey`, which counts in the same round trip that finds the key.
 */
export class RateLimitedError extends TillpointError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 'Too many requests: slow down and retry after the time in the Retry-After header');
  }
}

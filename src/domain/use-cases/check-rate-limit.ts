import { TillpointError } from '../errors';
import type { Deps, Scope } from '../ports';

export class RateLimitedError extends TillpointError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 'Too many requests: slow down and retry after the time in the Retry-After header');
  }
}

/**
 * Counts one merchant API request against its account and mode (DESIGN §9: 100/s live, 25/s test)
 * in a one-second window shared by every instance; throws `RateLimitedError` past the limit.
 */
export async function checkRateLimit(deps: Deps, options: { scope: Scope }): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  const second = Math.floor(nowMs / 1000);
  const hits = await deps.rateLimits.hit(options.scope, second);
  if (hits > deps.rateLimitPerSecond[options.scope.mode]) {
    throw new RateLimitedError(Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000)));
  }
}

import { IDEMPOTENCY_RETENTION_MS } from '../rules';
import type { Deps } from '../../deps';

/** Deletes idempotency records past their 24 hours and rate-limit windows past their second. */
export async function purgeExpiredApiRecords(deps: Deps): Promise<{ idempotency: number; rateLimits: number }> {
  const now = deps.clock.now().getTime();
  return {
    idempotency: await deps.idempotency.purgeCreatedBefore(new Date(now - IDEMPOTENCY_RETENTION_MS)),
    rateLimits: await deps.rateLimits.purgeBefore(Math.floor(now / 1000) - 60),
  };
}

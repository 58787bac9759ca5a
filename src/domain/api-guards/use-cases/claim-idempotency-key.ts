import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_RETENTION_MS, isValidIdempotencyKey, requestFingerprint } from '../rules';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { IdempotencyClaim } from '../ports';

/**
 * Takes an `Idempotency-Key` for one request: run it (claimed), replay the first answer, or refuse
 * because the key is in flight (`idempotency_key_in_use`) or was used with other parameters
 * (`idempotency_key_reused`).
 */
export async function claimIdempotencyKey(
  deps: Deps,
  options: { scope: Scope; key: string; method: string; url: string; body: unknown },
): Promise<Extract<IdempotencyClaim, { outcome: 'claimed' | 'replay' }>> {
  const { scope, key } = options;
  if (!isValidIdempotencyKey(key)) {
    throw new TillpointError('parameter_invalid', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      param: 'Idempotency-Key',
    });
  }
  const now = deps.clock.now();
  const claim = await deps.idempotency.claim({
    scope,
    key,
    fingerprint: await requestFingerprint(options.method, options.url, options.body),
    now,
    expiredBefore: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
    lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
  });
  if (claim.outcome === 'in_use') {
    throw new TillpointError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry once it has finished');
  }
  if (claim.outcome === 'reused') {
    throw new TillpointError('idempotency_key_reused', 'This Idempotency-Key was already used with other parameters; use a new key for a new request');
  }
  return claim;
}

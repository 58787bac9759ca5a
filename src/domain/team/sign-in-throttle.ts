/**
 * How repeated failed sign-ins are slowed and then locked (docs/dashboard.md). Failures are counted
 * per email and per IP over `windowMs`; past `slowAfter` each attempt must wait a doubling delay
 * after the last failure, past `lockAfter` the subject is locked for `lockMs`.
 */
export interface ThrottleLimits {
  slowAfter: number;
  lockAfter: number;
}

export const signInThrottle = {
  windowMs: 60 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  maxDelayMs: 60 * 1000,
  /** One person guessing at one email. */
  email: { slowAfter: 3, lockAfter: 10 } satisfies ThrottleLimits,
  /** One address spraying many emails: a busier office shares an IP, so more room. */
  ip: { slowAfter: 20, lockAfter: 50 } satisfies ThrottleLimits,
};

/** Milliseconds to wait before the next attempt may be checked, or 0 when it may be now. */
export function signInWait(failures: readonly Date[], limits: ThrottleLimits, now: Date): number {
  const recent = failures.filter((at) => now.getTime() - at.getTime() < signInThrottle.windowMs);
  const last = recent.at(-1);
  if (!last || recent.length < limits.slowAfter) return 0;
  const hold = recent.length >= limits.lockAfter ? signInThrottle.lockMs : Math.min(1000 * 2 ** (recent.length - limits.slowAfter), signInThrottle.maxDelayMs);
  return Math.max(0, last.getTime() + hold - now.getTime());
}

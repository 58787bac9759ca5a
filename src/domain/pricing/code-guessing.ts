import { RateLimitedError } from '../api-guards/rules';

/**
 * Wrong promotion codes typed on the page, counted per session and per shopper address in a sliding
 * window: past `perSession` (or `perAddress`) wrong codes within `windowMs`, the page's code field
 * answers `rate_limited` until the oldest wrong code leaves the window, so codes cannot be guessed
 * by trying many. A code that applies is not counted. Kept in this instance's memory: a shopper
 * spread over N instances gets at most N times the limit.
 */
export class PromotionCodeGuessLimit {
  private readonly wrong = new Map<string, number[]>();

  constructor(readonly limits: { perSession: number; perAddress: number; windowMs: number } = { perSession: 5, perAddress: 20, windowMs: 10 * 60 * 1000 }) {}

  /** Throws `rate_limited` (with its Retry-After) when the session or the address has used up its wrong codes. */
  assertAllowed(sessionId: string, address: string, now: number): void {
    const wait = Math.max(this.waitMs(`s:${sessionId}`, this.limits.perSession, now), this.waitMs(`a:${address}`, this.limits.perAddress, now));
    if (wait > 0) throw new RateLimitedError(Math.ceil(wait / 1000));
  }

  /** Counts a wrong code against the session and the address. */
  recordWrong(sessionId: string, address: string, now: number): void {
    for (const key of [`s:${sessionId}`, `a:${address}`]) this.wrong.set(key, [...this.recent(key, now), now]);
    // Bounded memory: forget keys whose window has passed once the map grows.
    if (this.wrong.size > 10_000) for (const key of [...this.wrong.keys()]) if (this.recent(key, now).length === 0) this.wrong.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.wrong.get(key) ?? []).filter((at) => at > now - this.limits.windowMs);
  }

  private waitMs(key: string, limit: number, now: number): number {
    const recent = this.recent(key, now);
    return recent.length < limit ? 0 : recent[recent.length - limit]! + this.limits.windowMs - now;
  }
}

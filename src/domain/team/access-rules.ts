import { recordAudit } from './audit';
import { TillpointError } from '../shared/errors';
import type { Deps, UnitOfWork } from '../deps';
import type { Actor, User } from './entities';
import { signInThrottle, signInWait, type ThrottleLimits } from './sign-in-throttle';
import { passwordRule } from './use-cases/sign-up';

/** A setup link works for 24 hours, once. */
export const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A reset link handed over by an owner or the operator works for 24 hours; one sent by email, for 1 hour. */
export const HANDED_RESET_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const EMAILED_RESET_LIFETIME_MS = 60 * 60 * 1000;

/** Refused before anything was checked; `retryAfterSeconds` goes in `Retry-After`. */
export class ThrottledError extends TillpointError {
  constructor(
    readonly retryAfterSeconds: number,
    what = 'failed sign-ins',
  ) {
    super('rate_limited', `Too many ${what}: try again in ${retryAfterSeconds} seconds`);
  }
}

/** The throttle subjects of a person at an address: their email, and the IP when known. */
export function throttleSubjects(email: string, ip: string | null, prefix = ''): string[] {
  return [`${prefix}email:${email}`, ...(ip ? [`${prefix}ip:${ip}`] : [])];
}

/**
 * Throws a `ThrottledError` while the subjects have failed too often (sign-in-throttle.ts): the
 * email with `email` limits, the IP with `ip` limits.
 */
export async function assertNotThrottled(
  tx: UnitOfWork,
  subjects: string[],
  now: Date,
  limits: { email: ThrottleLimits; ip: ThrottleLimits } = signInThrottle,
  what?: string,
): Promise<void> {
  const since = new Date(now.getTime() - signInThrottle.windowMs);
  const byEmail = signInWait(await tx.signInFailures.since(subjects[0]!, since), limits.email, now);
  const byIp = subjects[1] ? signInWait(await tx.signInFailures.since(subjects[1], since), limits.ip, now) : 0;
  const wait = Math.max(byEmail, byIp);
  if (wait > 0) throw new ThrottledError(Math.ceil(wait / 1000), what);
}

/**
 * Checks a user's current password as sign-in does, counting a wrong one against the same throttle,
 * so a stolen session cannot be used to guess the password faster than the sign-in page allows.
 */
export async function verifyCurrentPassword(deps: Deps, options: { user: User; password: string; ip: string | null; param: string }) {
  const subjects = throttleSubjects(options.user.email, options.ip);
  const now = deps.clock.now();
  await deps.store.transaction((tx) => assertNotThrottled(tx, subjects, now));
  if (!(await deps.passwords.verify(options.user.passwordHash, options.password))) {
    await deps.store.transaction((tx) => tx.signInFailures.record(subjects, now));
    throw new TillpointError('parameter_invalid', 'The current password is not right', { param: options.param });
  }
}

/** Refuses a new password outside the length rule sign-up uses. */
export function checkNewPassword(password: string, param = 'password'): void {
  if (password.length < passwordRule.min || password.length > passwordRule.max) {
    throw new TillpointError('parameter_invalid', `The password must be ${passwordRule.min} to ${passwordRule.max} characters`, { param });
  }
}

/**
 * Writes an action on a person's own sign-in (password, second factor, sessions) in the audit log of
 * every account they belong to: each account's owners see what happened to their members' access.
 */
export async function auditForUser(tx: UnitOfWork, entry: { userId: string; actor: Actor; action: string; target: string | null; at: Date }): Promise<void> {
  for (const membership of await tx.memberships.listForUser(entry.userId)) {
    await recordAudit(tx, { accountId: membership.accountId, mode: null, actor: entry.actor, action: entry.action, target: entry.target, at: entry.at });
  }
}

/** The actor of a person acting on their own behalf. */
export function userActor(user: User, ip: string | null): Actor {
  return { type: 'user', id: user.id, label: user.email, ip };
}

import { startDashboardSession, type StartedSession } from '../dashboard-session';
import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import { signInThrottle, signInWait } from '../sign-in-throttle';
import type { User } from '../entities';

/** Refused before the password was even checked; `retryAfterSeconds` goes in `Retry-After`. */
export class SignInThrottledError extends TillpointError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Too many failed sign-ins: try again in ${retryAfterSeconds} seconds`);
  }
}

// A real argon2id hash of a random password: checking it costs what checking a real user costs, so
// response time does not reveal which emails have users.
const decoyHash = '$argon2id$v=19$m=19456,t=2,p=1$1NPT3+xhfP2EHmZvjRXw7A$1w8RJCDcvIjvT/JPFDGXrnvMI09XOMgU0qkdvv4aMXc';

/**
 * Checks an email and password and opens a session. Failures are counted per email and per IP in
 * the database (so every instance sees them); too many are slowed, then locked (sign-in-throttle.ts).
 */
export async function signIn(
  deps: Deps,
  options: { email: string; password: string; ip: string | null },
): Promise<StartedSession & { user: User }> {
  const email = options.email.trim().toLowerCase();
  const subjects = [`email:${email}`, ...(options.ip ? [`ip:${options.ip}`] : [])];
  const now = deps.clock.now();
  const since = new Date(now.getTime() - signInThrottle.windowMs);
  const { user, wait } = await deps.store.transaction(async (tx) => {
    const byEmail = signInWait(await tx.signInFailures.since(subjects[0]!, since), signInThrottle.email, now);
    const byIp = subjects[1] ? signInWait(await tx.signInFailures.since(subjects[1], since), signInThrottle.ip, now) : 0;
    return { user: await tx.users.getByEmail(email), wait: Math.max(byEmail, byIp) };
  });
  if (wait > 0) throw new SignInThrottledError(Math.ceil(wait / 1000));

  const valid = await deps.passwords.verify(user?.passwordHash ?? decoyHash, options.password);
  if (!user || !valid) {
    await deps.store.transaction((tx) => tx.signInFailures.record(subjects, now));
    throw new TillpointError('sign_in_failed', 'The email or password is not right');
  }
  return deps.store.transaction(async (tx) => {
    await tx.signInFailures.clear(subjects[0]!);
    return { ...(await startDashboardSession(tx, { userId: user.id, ip: options.ip, at: now })), user };
  });
}

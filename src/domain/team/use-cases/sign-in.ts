import { startDashboardSession, type StartedSession } from '../dashboard-session';
import { TillpointError } from '../../shared/errors';
import { sha256Hex } from '../../shared/digest';
import type { Deps } from '../../deps';
import type { User } from '../entities';
import { assertNotThrottled, auditForUser, ThrottledError, throttleSubjects, userActor } from '../access-rules';
import { normalizeRecoveryCode } from '../second-factor';

/** Refused before the password was even checked; `retryAfterSeconds` goes in `Retry-After`. */
export { ThrottledError as SignInThrottledError };

// A real argon2id hash of a random password: checking it costs what checking a real user costs, so
// response time does not reveal which emails have users.
const decoyHash = '$argon2id$v=19$m=19456,t=2,p=1$1NPT3+xhfP2EHmZvjRXw7A$1w8RJCDcvIjvT/JPFDGXrnvMI09XOMgU0qkdvv4aMXc';

/**
 * Checks an email and password and opens a session. A user with a second factor must also give a
 * code from their authenticator app (or one of their recovery codes): without one the answer is
 * `second_factor_required`. Failures of either are counted per email and per IP in the database (so
 * every instance sees them); too many are slowed, then locked (sign-in-throttle.ts).
 */
export async function signIn(
  deps: Deps,
  options: { email: string; password: string; code?: string; recoveryCode?: string; ip: string | null; userAgent?: string | null },
): Promise<StartedSession & { user: User }> {
  const email = options.email.trim().toLowerCase();
  const subjects = throttleSubjects(email, options.ip);
  const now = deps.clock.now();
  const user = await deps.store.transaction(async (tx) => {
    await assertNotThrottled(tx, subjects, now);
    return tx.users.getByEmail(email);
  });

  const valid = await deps.passwords.verify(user?.passwordHash ?? decoyHash, options.password);
  const fail = async (error: TillpointError): Promise<never> => {
    await deps.store.transaction((tx) => tx.signInFailures.record(subjects, now));
    throw error;
  };
  if (!user || !valid) return fail(new TillpointError('sign_in_failed', 'The email or password is not right'));

  const factor = await deps.store.read((reader) => reader.secondFactors.get(user.id));
  let usedRecoveryCode = false;
  if (factor?.secret) {
    const secret = factor.secret;
    if (options.recoveryCode) {
      const hash = await sha256Hex(normalizeRecoveryCode(options.recoveryCode));
      usedRecoveryCode = await deps.store.transaction((tx) => tx.recoveryCodes.use(user.id, hash, now));
      if (!usedRecoveryCode)
        return fail(new TillpointError('sign_in_failed', 'The recovery code is not right, or was used already', { param: 'recovery_code' }));
    } else if (options.code) {
      const step = deps.access.secondFactorCodes.check(secret, options.code, now);
      // A code is accepted once: the same step again (a code seen over a shoulder) is refused.
      const accepted =
        step !== null &&
        (await deps.store.transaction(async (tx) => {
          const current = await tx.secondFactors.get(user.id, { forUpdate: true });
          if (current?.lastStep !== null && current?.lastStep !== undefined && step <= current.lastStep) return false;
          await tx.secondFactors.acceptStep(user.id, step);
          return true;
        }));
      if (!accepted)
        return fail(new TillpointError('sign_in_failed', 'The code is not right: enter the code your authenticator app shows now', { param: 'code' }));
    } else {
      throw new TillpointError('second_factor_required', 'Enter the code from your authenticator app, or a recovery code');
    }
  }
  return deps.store.transaction(async (tx) => {
    await tx.signInFailures.clear(subjects[0]!);
    if (usedRecoveryCode) {
      await auditForUser(tx, { userId: user.id, actor: userActor(user, options.ip), action: 'user.recovery_code_use', target: user.id, at: now });
    }
    return { ...(await startDashboardSession(tx, { userId: user.id, ip: options.ip, userAgent: options.userAgent ?? null, at: now })), user };
  });
}

import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import { assertNotThrottled, EMAILED_RESET_LIFETIME_MS, throttleSubjects } from '../access-rules';
import { issuePasswordReset } from './create-password-reset-link';

/** A person may ask for 3 reset emails an hour before being slowed, 5 before a lock; an address, more. */
const resetRequestLimits = { email: { slowAfter: 3, lockAfter: 5 }, ip: { slowAfter: 10, lockAfter: 30 } };

/**
 * Emails a reset link (valid 1 hour) when the address has a user. The answer is the same whether it
 * has one or not, and the mail goes out after the answer, so neither reveals who has a user.
 */
export async function requestPasswordResetEmail(deps: Deps, options: { email: string; ip: string | null }): Promise<void> {
  const mailer = deps.access.mailer;
  if (!mailer) {
    throw new TillpointError(
      'resource_missing',
      'Password reset by email is not set up on this install (SMTP_URL): ask an owner for a reset link, or the operator to run `tillpoint password-reset-link`',
    );
  }
  const email = options.email.trim().toLowerCase();
  const subjects = throttleSubjects(email, options.ip, 'reset:');
  const now = deps.clock.now();
  const link = await deps.store.transaction(async (tx) => {
    await assertNotThrottled(tx, subjects, now, resetRequestLimits, 'password reset requests');
    await tx.signInFailures.record(subjects, now);
    const user = await tx.users.getByEmail(email);
    return user && issuePasswordReset(deps, tx, { user, createdBy: null, lifetimeMs: EMAILED_RESET_LIFETIME_MS, at: now });
  });
  if (!link) return;
  deps.background.start(() =>
    mailer.send({
      to: link.email,
      subject: 'Reset your Tillpoint password',
      text: [
        'Someone asked to reset the password of your Tillpoint dashboard user.',
        '',
        `Set a new password here (the link works once, for one hour): ${link.url}`,
        '',
        'If it was not you, ignore this email: your password stays as it is.',
      ].join('\n'),
    }),
  );
}

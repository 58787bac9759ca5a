import { recordAudit } from '../audit';
import { startDashboardSession, type StartedSession } from '../dashboard-session';
import { TillpointError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { User } from '../entities';
import { newAccount, joinWithInvite } from '../rules';

export const passwordRule = { min: 10, max: 200 };

/** Checks and normalizes a new user's email, name and password length. */
export function checkNewUser(options: { email: string; name: string; password: string }) {
  const email = options.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw new TillpointError('parameter_invalid', 'Enter a valid email address', { param: 'email' });
  }
  const name = options.name.trim();
  if (name.length < 1 || name.length > 100) {
    throw new TillpointError('parameter_invalid', 'name must be 1 to 100 characters', { param: 'name' });
  }
  if (options.password.length < passwordRule.min || options.password.length > passwordRule.max) {
    throw new TillpointError('parameter_invalid', `The password must be ${passwordRule.min} to ${passwordRule.max} characters`, { param: 'password' });
  }
  return { email, name };
}

/**
 * Creates a user and signs them in. Without an invite it also creates their account, with them as
 * owner, which only an open install allows (SIGNUP=open); with an invite token they join the
 * inviting account in the invited role instead.
 */
export async function signUp(
  deps: Deps,
  options: {
    email: string;
    name: string;
    password: string;
    businessName?: string;
    inviteToken?: string;
    ip: string | null;
    userAgent?: string | null;
  },
): Promise<StartedSession & { user: User; accountId: string }> {
  const { email, name } = checkNewUser(options);
  const now = deps.clock.now();
  if (!options.inviteToken && deps.access.signUp !== 'open') {
    const claimed = (await deps.store.read((reader) => reader.userSecrets.count())) > 0;
    throw new TillpointError(
      'sign_up_closed',
      claimed
        ? 'Sign-up is closed on this install: ask an owner for an invite link'
        : 'This install is not claimed yet: open the setup link `tillpoint serve` printed on its first start, or make one with `tillpoint setup-link`',
    );
  }
  if (!options.inviteToken && !options.businessName) {
    throw new TillpointError('parameter_missing', 'Missing required parameter: business_name', { param: 'business_name' });
  }
  const account = options.inviteToken ? null : newAccount({ name: options.businessName! }, now);
  // Hashing is deliberately slow; it runs before the transaction opens.
  const user: User = { id: newId('user', 16), email, name, passwordHash: await deps.passwords.hash(options.password), createdAt: now };
  return deps.store.transaction(async (tx) => {
    if (await tx.users.getByEmail(email)) {
      throw new TillpointError('parameter_invalid', 'This email already has a user: sign in instead', { param: 'email' });
    }
    await tx.users.insert(user);
    const actor = { type: 'user' as const, id: user.id, label: email, ip: options.ip };
    let accountId: string;
    if (account) {
      await tx.accounts.insert(account);
      await tx.memberships.insert({ accountId: account.id, userId: user.id, role: 'owner', createdAt: now });
      await recordAudit(tx, { accountId: account.id, mode: null, actor, action: 'account.create', target: account.id, at: now });
      accountId = account.id;
    } else {
      accountId = (await joinWithInvite(tx, { token: options.inviteToken!, actor, at: now })).accountId;
    }
    const started = await startDashboardSession(tx, { userId: user.id, ip: options.ip, userAgent: options.userAgent ?? null, at: now });
    return { ...started, user, accountId };
  });
}

import { currencyRule } from '../shared/currency';
import { TillpointError, resourceMissing } from '../shared/errors';
import { newId } from '../shared/ids';
import type { Account, ApiKeyKind, ApiKey, Membership, Actor } from './entities';
import { apiKeyPrefix, hashApiKey } from './api-key-secret';
import { normalizePermissions, type ApiKeyPermissions } from './api-key-permissions';
import type { Mode } from '../shared/events';
import { can, type Role } from './permissions';
import type { UnitOfWork } from '../deps';
import { recordAudit } from './audit';
import { sha256Hex } from '../shared/digest';

/** Checks a new account's name and currency and builds it; nothing is stored yet. */
export function newAccount(options: { name: string; defaultCurrency?: string }, now: Date): Account {
  const name = options.name.trim();
  if (name.length < 1 || name.length > 100) {
    throw new TillpointError('parameter_invalid', 'name must be 1 to 100 characters', { param: 'name' });
  }
  const currency = currencyRule(options.defaultCurrency ?? 'USD');
  if (!currency) {
    throw new TillpointError('currency_not_supported', 'default currency is not supported', {
      param: 'default_currency',
    });
  }
  return {
    id: newId('acct', 16),
    name,
    defaultCurrency: currency.code,
    branding: { displayName: null, logoUrl: null, accentColor: null },
    supportEmail: null,
    sendReceipts: false,
    subscriptionFailureAction: 'cancel',
    embedAllowedOrigins: [],
    createdAt: now,
  };
}

/** Makes a new key and the record to store for it (its hash); the secret is never readable again. */
export async function buildApiKey(options: {
  accountId: string;
  mode: Mode;
  kind: ApiKeyKind;
  at: Date;
  name?: string;
  expiresAt?: Date | null;
  permissions?: ApiKeyPermissions | null;
}): Promise<{ key: ApiKey; secret: string }> {
  const secret = newId(apiKeyPrefix(options.kind, options.mode).slice(0, -1), 32);
  const key: ApiKey = {
    id: newId('key', 16),
    accountId: options.accountId,
    mode: options.mode,
    kind: options.kind,
    prefix: apiKeyPrefix(options.kind, options.mode),
    name: options.name ?? '',
    secretHash: await hashApiKey(secret),
    last4: secret.slice(-4),
    createdAt: options.at,
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: options.expiresAt ?? null,
    permissions: options.kind === 'restricted' ? normalizePermissions(options.permissions ?? {}) : null,
  };
  return { key, secret };
}

/** Making or unmaking an owner hands over control of the account, which only owners may do. */
export function assertMayAssign(by: Membership, role: Role): void {
  if (role === 'owner' && !can(by.role, 'ownership.transfer')) {
    throw new TillpointError('insufficient_role', 'Only an owner may make someone an owner');
  }
}

/**
 * Finds the member another member wants to change, refusing what would take control away from the
 * owners: only an owner may touch an owner, and the last owner stays.
 */
export async function memberToChange(tx: UnitOfWork, options: { by: Membership; userId: string; losesOwnership: boolean }): Promise<Membership> {
  // Owners first, in one order, then the target: two requests demoting two owners cannot deadlock.
  const owners = await tx.memberships.ownersForUpdate(options.by.accountId);
  const target = await tx.memberships.get(options.by.accountId, options.userId, { forUpdate: true });
  if (!target) throw resourceMissing('member', options.userId);
  if (target.role === 'owner') {
    assertMayAssign(options.by, 'owner');
    if (options.losesOwnership && owners.length <= 1) {
      throw new TillpointError('parameter_invalid', 'An account needs at least one owner: make someone else owner first', {
        param: 'role',
      });
    }
  }
  return target;
}

/**
 * Redeems an invite token inside the caller's transaction: once, before it expires. A user already
 * in the account keeps the role they have.
 */
export async function joinWithInvite(tx: UnitOfWork, options: { token: string; actor: Actor; at: Date }): Promise<Membership> {
  const invite = await tx.invites.getByTokenHash(await sha256Hex(options.token), { forUpdate: true });
  if (!invite || invite.acceptedAt || invite.revokedAt || invite.expiresAt <= options.at) {
    throw resourceMissing('invite', 'link');
  }
  await tx.invites.accept(invite.id, options.actor.id, options.at);
  const existing = await tx.memberships.get(invite.accountId, options.actor.id);
  if (existing) return existing;
  const membership: Membership = { accountId: invite.accountId, userId: options.actor.id, role: invite.role, createdAt: options.at };
  await tx.memberships.insert(membership);
  await recordAudit(tx, {
    accountId: invite.accountId,
    mode: null,
    actor: options.actor,
    action: 'invite.accept',
    target: invite.id,
    at: options.at,
  });
  return membership;
}

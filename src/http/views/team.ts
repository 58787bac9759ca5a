import type { AuditEntry, Invite, Account } from '../../domain/team/entities';
import type { MembershipWithAccount, MemberWithUser } from '../../domain/team/ports';
import { unixTime } from './resource';

export function accountsView(memberships: MembershipWithAccount[]) {
  return memberships.map((m) => ({ id: m.accountId, name: m.accountName, role: m.role, default_currency: m.defaultCurrency }));
}

export function memberView(member: MemberWithUser) {
  return { user_id: member.userId, email: member.email, name: member.name, role: member.role, joined: unixTime(member.createdAt) };
}

export function inviteView(invite: Invite) {
  return { id: invite.id, role: invite.role, created: unixTime(invite.createdAt), expires_at: unixTime(invite.expiresAt) };
}

export function accountSettingsView(account: Account) {
  return {
    id: account.id,
    name: account.name,
    default_currency: account.defaultCurrency,
    display_name: account.branding.displayName,
    logo_url: account.branding.logoUrl,
    accent_color: account.branding.accentColor,
    support_email: account.supportEmail,
    send_receipts: account.sendReceipts,
    subscription_failure_action: account.subscriptionFailureAction,
    embed_allowed_origins: account.embedAllowedOrigins ?? [],
  };
}

export function auditEntryView(entry: AuditEntry) {
  return {
    id: entry.id,
    mode: entry.mode,
    actor: { type: entry.actor.type, id: entry.actor.id, label: entry.actor.label },
    ip: entry.actor.ip,
    action: entry.action,
    target: entry.target,
    created: unixTime(entry.at),
  };
}

import { maskEmail } from '../../domain/customer-email';
import type { Account, ApiKey, CheckoutSession, Payment } from '../../domain/entities';
import type { DomainEvent } from '../../domain/events';
import { can } from '../../domain/permissions';
import type { ApiRequestRecord, AuditEntry, Invite, Membership } from '../../domain/team-entities';
import type { MembershipWithAccount, MemberWithUser } from '../../domain/team-ports';
import { checkoutSessionView, paymentView, unixTime } from '../../domain/views';

/** Whether this member sees customer emails in clear (viewers do not). */
export const seesEmails = (membership: Membership) => can(membership.role, 'customers.read_email');

export function dashboardPaymentView(payment: Payment, membership: Membership) {
  const view = paymentView(payment);
  return { ...view, customer_email: seesEmails(membership) ? view.customer_email : maskEmail(view.customer_email) };
}

export function dashboardSessionView(session: CheckoutSession, membership: Membership, publicUrl: string) {
  const view = checkoutSessionView(session, publicUrl);
  return { ...view, customer_email: seesEmails(membership) ? view.customer_email : maskEmail(view.customer_email) };
}

/** An event on a timeline: what happened and when; its snapshot stays server-side (it may hold emails). */
export function timelineEventView(event: DomainEvent) {
  return { id: event.id, type: event.type, object: event.objectId, created: unixTime(event.createdAt) };
}

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
  };
}

export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    kind: key.kind,
    mode: key.mode,
    redacted: `${key.prefix}…${key.last4}`,
    created: unixTime(key.createdAt),
    last_used_at: unixTime(key.lastUsedAt),
    revoked_at: unixTime(key.revokedAt),
  };
}

export function apiRequestView(record: ApiRequestRecord) {
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    status: record.status,
    error_code: record.errorCode,
    key_id: record.keyId,
    request_id: record.requestId,
    created: unixTime(record.at),
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

/**
 * Who may do what in the dashboard (design.md §6): one table, read by every dashboard endpoint on the
 * server. A page hiding a button is a courtesy; this table is the control.
 *
 * @example can('support', 'payments.refund') // true
 */
export const roles = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** Every action a dashboard endpoint can name. Pages that arrive later name theirs from here. */
export const permissions = [
  'overview.read',
  'payments.read',
  /** Unmasked customer emails, and filtering by email; viewers see `j•••@example.com`. */
  'customers.read_email',
  /** The Customers page: customers, their payments and saved payment methods (brand, last4, expiry). */
  'customers.read',
  /** Delete a customer: its saved methods go at the processor too; its payments stay, detached. */
  'customers.delete',
  /** The Subscriptions and Invoices pages. */
  'subscriptions.read',
  /** Cancel a subscription (now or at its period's end), resume it, change its quantity. */
  'subscriptions.manage',
  'payments.export',
  'payments.refund',
  /** Capture and void an authorization. */
  'payments.capture',
  'receipts.resend',
  /** Add text and files to a dispute's answer. */
  'disputes.evidence',
  /** Submit a dispute's answer, or accept the dispute. */
  'disputes.respond',
  'sessions.read',
  'payment_links.read',
  'payment_links.manage',
  'keys.read',
  'keys.manage',
  'request_log.read',
  'webhooks.read',
  'webhooks.manage',
  'settings.read',
  'settings.manage',
  'processor.manage',
  'team.read',
  'team.manage',
  'flags.read',
  'flags.manage',
  'audit.read',
  'ownership.transfer',
  'account.delete',
] as const;
export type Permission = (typeof permissions)[number];

const everything = new Set<Permission>(permissions);
const readOnly: Permission[] = [
  'overview.read',
  'payments.read',
  'customers.read',
  'subscriptions.read',
  'sessions.read',
  'payment_links.read',
  'settings.read',
  'team.read',
  'flags.read',
];

/** The role × permission matrix. */
export const rolePermissions: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  owner: everything,
  admin: new Set(permissions.filter((p) => p !== 'ownership.transfer' && p !== 'account.delete')),
  developer: new Set<Permission>([
    ...readOnly,
    'customers.read_email',
    'payments.export',
    'payment_links.manage',
    'keys.read',
    'keys.manage',
    'request_log.read',
    'webhooks.read',
    'webhooks.manage',
    'flags.manage',
  ]),
  support: new Set<Permission>([...readOnly, 'customers.read_email', 'payments.export', 'payments.refund', 'receipts.resend', 'disputes.evidence']),
  viewer: new Set<Permission>(readOnly),
};

export function can(role: Role, permission: Permission): boolean {
  return rolePermissions[role].has(permission);
}

export function isRole(value: string): value is Role {
  return (roles as readonly string[]).includes(value);
}

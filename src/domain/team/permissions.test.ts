import { describe, expect, it } from 'vitest';
import { can, permissions, roles, type Permission, type Role } from './permissions';

describe('role × permission matrix (design.md §6)', () => {
  it('gives the owner everything', () => {
    for (const permission of permissions) expect(can('owner', permission)).toBe(true);
  });

  it('gives an admin everything but ownership transfer and account deletion', () => {
    expect(permissions.filter((p) => !can('admin', p))).toEqual(['ownership.transfer', 'account.delete']);
  });

  const cases: Array<[Role, Permission, boolean]> = [
    ['developer', 'keys.manage', true],
    ['developer', 'webhooks.manage', true],
    ['developer', 'request_log.read', true],
    ['developer', 'payments.read', true],
    ['developer', 'payments.refund', false],
    ['developer', 'team.manage', false],
    ['support', 'payments.refund', true],
    ['support', 'receipts.resend', true],
    ['support', 'keys.read', false],
    ['support', 'webhooks.read', false],
    ['support', 'payments.capture', false],
    ['viewer', 'payments.read', true],
    ['viewer', 'customers.read_email', false],
    ['viewer', 'payments.refund', false],
    ['viewer', 'settings.manage', false],
  ];
  it.each(cases)('%s may %s: %s', (role, permission, expected) => {
    expect(can(role, permission)).toBe(expected);
  });

  it('lets only read permissions reach a viewer', () => {
    for (const permission of permissions) {
      if (can('viewer', permission)) expect(permission).toMatch(/\.read$/);
    }
    expect(roles).toHaveLength(5);
  });
});

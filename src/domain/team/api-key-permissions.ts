import { TillpointError } from '../shared/errors';

/**
 * What a restricted key (`rk_test_…`, `rk_live_…`) may be granted, one entry per group of merchant
 * API routes. Every `/v1` route names one of these in its contract (src/http/define-route.ts); the
 * merchant API refuses to register a route that names none.
 */
export const apiResources = [
  'checkout_sessions',
  'payments',
  'refunds',
  'disputes',
  'customers',
  'products',
  'prices',
  'payment_links',
  'coupons',
  'promotion_codes',
  'tax_rates',
  'subscriptions',
  'invoices',
  'test_clocks',
  'billing_portal',
  'events',
  'webhook_endpoints',
  'flags',
  'experiments',
  'checkout_page',
] as const;

export type ApiResource = (typeof apiResources)[number];

/** A restricted key's grant on one resource: `write` includes `read`. */
export type ApiPermissionLevel = 'none' | 'read' | 'write';

export type ApiAccess = 'read' | 'write';

/** A restricted key's grants; a resource left out is `none`. */
export type ApiKeyPermissions = Partial<Record<ApiResource, ApiPermissionLevel>>;

const rank: Record<ApiPermissionLevel, number> = { none: 0, read: 1, write: 2 };

/** The parts of a key (entities.ts) that decide what it may do. */
interface KeyGrants {
  kind: string;
  permissions: ApiKeyPermissions | null;
  prefix: string;
  last4: string;
}

/** True when the key may make a call needing `access` on `resource`. Standard secret keys may do anything. */
export function keyPermits(key: Pick<KeyGrants, 'kind' | 'permissions'>, resource: ApiResource, access: ApiAccess): boolean {
  if (key.kind !== 'restricted') return true;
  const level = key.permissions?.[resource] ?? 'none';
  return rank[level] >= rank[access];
}

/** Refuses (403 api_key_permission_denied) a call the key may not make; nothing is changed. */
export function assertKeyPermits(key: KeyGrants, resource: ApiResource, access: ApiAccess): void {
  if (keyPermits(key, resource, access)) return;
  throw new TillpointError(
    'api_key_permission_denied',
    `The key ${key.prefix}…${key.last4} does not have ${access} access to ${resource}; an owner or developer can change its permissions in the dashboard (Developers).`,
  );
}

/** Keeps only known resources with a grant other than `none`, so stored permissions read plainly. */
export function normalizePermissions(permissions: ApiKeyPermissions): ApiKeyPermissions {
  const kept: ApiKeyPermissions = {};
  for (const resource of apiResources) {
    const level = permissions[resource];
    if (level && level !== 'none') kept[resource] = level;
  }
  return kept;
}

/** How long a rolled key keeps working beside its successor (Stripe's choices), in seconds. */
export const rollExpiries = [0, 3600, 86_400, 604_800] as const;
export type RollExpiry = (typeof rollExpiries)[number];

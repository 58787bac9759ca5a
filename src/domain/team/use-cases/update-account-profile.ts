import { recordAudit } from '../audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Actor, Account } from '../entities';

export interface AccountProfileChanges {
  name?: string;
  displayName?: string | null;
  /** https only: the checkout page's content policy loads images from https and itself. */
  logoUrl?: string | null;
  /** `#rrggbb`. */
  accentColor?: string | null;
  supportEmail?: string | null;
  /** Email shoppers a receipt when they pay (docs/receipts.md). */
  sendReceipts?: boolean;
  subscriptionFailureAction?: 'cancel' | 'unpaid';
  /** Origins allowed to frame the embedded checkout: `https://host[:port]` (http only for localhost), up to 10. */
  embedAllowedOrigins?: string[];
}

/** An origin a page may be framed by: scheme, host and port only; https, or http for a local address. */
export function embedOriginOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && local))) return null;
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return null;
  if (value.trim().replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase()) return null;
  return url.origin;
}

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

/** Checks profile and branding changes; what the checkout page then shows. */
export function applyProfileChanges(account: Account, changes: AccountProfileChanges): Account {
  const next: Account = { ...account, branding: { ...account.branding } };
  if (changes.name !== undefined) {
    const name = changes.name.trim();
    if (name.length < 1 || name.length > 100) throw invalid('name', 'The business name must be 1 to 100 characters');
    next.name = name;
  }
  if (changes.displayName !== undefined) {
    const shown = changes.displayName?.trim() || null;
    if (shown && shown.length > 100) throw invalid('display_name', 'The display name must be at most 100 characters');
    next.branding.displayName = shown;
  }
  if (changes.logoUrl !== undefined) {
    const url = changes.logoUrl?.trim() || null;
    if (url !== null) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        parsed = null;
      }
      if (parsed?.protocol !== 'https:' || url.length > 2048) {
        throw invalid('logo_url', 'The logo must be an https:// URL');
      }
    }
    next.branding.logoUrl = url;
  }
  if (changes.accentColor !== undefined) {
    const color = changes.accentColor?.trim().toLowerCase() || null;
    if (color !== null && !/^#[0-9a-f]{6}$/.test(color)) throw invalid('accent_color', 'The accent colour must look like #1a73e8');
    next.branding.accentColor = color;
  }
  if (changes.supportEmail !== undefined) {
    const email = changes.supportEmail?.trim() || null;
    if (email !== null && (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)) {
      throw invalid('support_email', 'Enter a valid support email address');
    }
    next.supportEmail = email;
  }
  if (changes.sendReceipts !== undefined) next.sendReceipts = changes.sendReceipts;
  if (changes.subscriptionFailureAction !== undefined) next.subscriptionFailureAction = changes.subscriptionFailureAction;
  if (changes.embedAllowedOrigins !== undefined) {
    if (changes.embedAllowedOrigins.length > 10) throw invalid('embed_allowed_origins', 'At most 10 origins');
    next.embedAllowedOrigins = [
      ...new Set(
        changes.embedAllowedOrigins.map((value, i) => {
          const origin = embedOriginOf(value);
          if (!origin) throw invalid(`embed_allowed_origins[${i}]`, `'${value}' is not an origin: give https://host or https://host:port, nothing after it`);
          return origin;
        }),
      ),
    ];
  }
  return next;
}

/** Updates the business profile and branding. */
export async function updateAccountProfile(deps: Deps, options: { accountId: string; actor: Actor; changes: AccountProfileChanges }): Promise<Account> {
  const now = deps.clock.now();
  return deps.store.transaction(async (tx) => {
    const account = await tx.accounts.get(options.accountId);
    if (!account) throw resourceMissing('account', options.accountId);
    const next = applyProfileChanges(account, options.changes);
    await tx.accountProfiles.update(next);
    await recordAudit(tx, { accountId: account.id, mode: null, actor: options.actor, action: 'account.update', target: account.id, at: now });
    return next;
  });
}

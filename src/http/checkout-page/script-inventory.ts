import { EMBED_SCRIPT, EMBED_SCRIPT_INTEGRITY } from '../embed-script';
import type { BuiltChunk, CheckoutBuild } from './built-assets';
import { firstPartyPurposes, thirdPartyPurposes, type PageConfiguration } from './script-justifications';

/**
 * One script (or stylesheet) the checkout page can load: the inventory PCI DSS 4.0 requirement
 * 6.4.3 asks for. First-party entries come from the build's chunk graph, third-party ones from the
 * page's CSP script-src; the reasons come from script-justifications.ts.
 */
export interface InventoryScript {
  /** Stable across builds: the purpose, plus the chunk name where one purpose has several chunks. */
  id: string;
  party: 'first' | 'third';
  type: 'script' | 'stylesheet';
  /** '' for first-party files: the install's own origin (PUBLIC_URL). */
  origin: string;
  path: string;
  sha384: string | null;
  size: number | null;
  /** How its integrity is assured: an SRI hash the browser checks, or an exact origin in the CSP. */
  integrity: 'sri' | 'csp_origin';
  loading: 'page' | 'on_demand';
  /** Loaded when all of these hold. */
  loadedWhen: PageConfiguration[];
  /** Null when no purpose in script-justifications.ts explains it (a test keeps this from shipping). */
  justification: string | null;
  integrityNote: string | null;
}

/** `/assets/index.esm-DBPE2aYY.js` → `index.esm` (Vite appends an 8-character hash). */
const chunkName = (servedPath: string) => servedPath.replace(/^.*\//, '').replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, '');

function firstPartyEntry(chunk: BuiltChunk): Omit<InventoryScript, 'id'> & { purposeId: string } {
  const subject = chunk.kind === 'stylesheet' ? chunk.path : chunk.source;
  const purpose = firstPartyPurposes.find((candidate) => candidate.source.test(subject));
  return {
    purposeId: purpose?.id ?? `unexplained:${chunkName(chunk.path)}`,
    party: 'first',
    type: chunk.kind,
    origin: '',
    path: chunk.path,
    sha384: chunk.sha384,
    size: chunk.size,
    integrity: 'sri',
    loading: chunk.loading,
    loadedWhen: purpose?.loadedWhen ?? ['always'],
    justification: purpose?.justification ?? null,
    integrityNote: null,
  };
}

/** The https origins a CSP's script-src allows, besides 'self'. */
export function scriptOrigins(policy: string): string[] {
  const directive = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === 'script-src');
  return (directive?.slice(1) ?? []).filter((source) => /^https:\/\/[^*]+$/.test(source)).map((source) => source.replace(/\/+$/, ''));
}

/** Every script the checkout page can load, first-party chunks first, each with its reason. */
export function checkoutPageInventory(build: CheckoutBuild | null, policy: string): InventoryScript[] {
  const first = (build?.chunks ?? []).map(firstPartyEntry);
  const perPurpose = new Map<string, number>();
  for (const entry of first) perPurpose.set(entry.purposeId, (perPurpose.get(entry.purposeId) ?? 0) + 1);
  const inventory: InventoryScript[] = first.map(({ purposeId, ...entry }) => ({
    id: perPurpose.get(purposeId)! > 1 ? `${purposeId}.${chunkName(entry.path)}` : purposeId,
    ...entry,
  }));
  for (const origin of scriptOrigins(policy)) {
    const purposes = thirdPartyPurposes.filter((purpose) => purpose.origin === origin);
    if (!purposes.length) {
      inventory.push({
        id: `unexplained:${origin}`,
        party: 'third',
        type: 'script',
        origin,
        path: '/',
        sha384: null,
        size: null,
        integrity: 'csp_origin',
        loading: 'on_demand',
        loadedWhen: ['always'],
        justification: null,
        integrityNote: null,
      });
    }
    for (const purpose of purposes) {
      inventory.push({
        id: purpose.id,
        party: 'third',
        type: 'script',
        origin,
        path: purpose.path,
        sha384: null,
        size: null,
        integrity: 'csp_origin',
        loading: 'on_demand',
        loadedWhen: purpose.loadedWhen,
        justification: purpose.justification,
        integrityNote: purpose.integrityNote,
      });
    }
  }
  // Loaded by the merchant's page, not the checkout page: listed so every script we serve has its hash and reason.
  inventory.push({
    id: 'embedded-checkout-loader',
    party: 'first',
    type: 'script',
    origin: '',
    path: '/js/embed.js',
    sha384: EMBED_SCRIPT_INTEGRITY,
    size: Buffer.byteLength(EMBED_SCRIPT),
    integrity: 'sri',
    loading: 'on_demand',
    // Never by the checkout page itself: only a merchant's page that mounts an embedded session.
    loadedWhen: ['merchant_page'],
    justification:
      "Embedded sessions (ui_mode embedded): the merchant's page loads it, pinned by integrity, to mount the checkout in an iframe sized to its content and go to return_url after payment.",
    integrityNote: null,
  });
  return inventory;
}

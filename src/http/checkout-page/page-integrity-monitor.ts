import { createHash } from 'node:crypto';
import { fingerprintDigest } from '../../domain/checkout-page/rules';
import type { Deps } from '../../domain/deps';
import { detectCheckoutPageChanges } from '../../domain/checkout-page/use-cases/detect-checkout-page-changes';
import { recordFirstCheckoutPageBaseline } from '../../domain/checkout-page/use-cases/record-first-checkout-page-baseline';
import type { ErrorReporter } from '../../adapters/telemetry/server-reporting';
import { readCheckoutBuild, sha384, type CheckoutBuild } from './built-assets';
import { checkoutPageInventory, type InventoryScript } from './script-inventory';
import { addSubresourceIntegrity, integrityImportMap } from './subresource-integrity';
import type { PageFingerprint, CheckoutPageChange } from '../../domain/checkout-page/entities';

/** A response as a shopper's browser receives it (Fastify's `inject`, or a real HTTP client). */
export interface ServedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

/** The security headers PCI DSS 11.6.1 watches on the payment page. */
export const WATCHED_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'reporting-endpoints',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'strict-transport-security',
  'permissions-policy',
  'cross-origin-opener-policy',
] as const;

/** Any checkout URL: the page's scripts and headers do not depend on the session. */
export const FINGERPRINT_PAGE_URL = '/c/cs_checkoutpageintegritycheck';

const headerText = (value: ServedResponse['headers'][string]) => (Array.isArray(value) ? value.join(', ') : value === undefined ? null : String(value));

interface Tag {
  tag: string;
  attributes: Map<string, string>;
  inline: string | null;
}

/** The `<script>` and `<link>` tags of served HTML, with an inline script's text. */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(/<(script|link)\b([^>]*)>(?:([\s\S]*?)<\/script>)?/gi)) {
    const attributes = new Map<string, string>();
    for (const attribute of match[2]!.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attributes.set(attribute[1]!.toLowerCase(), attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    }
    const tag = match[1]!.toLowerCase();
    tags.push({ tag, attributes, inline: tag === 'script' && !attributes.has('src') ? (match[3] ?? '') : null });
  }
  return tags;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Fingerprints the checkout page as served: fetches the page and every first-party script and
 * stylesheet (those in its HTML and every chunk it may load later), hashing the bytes served; adds
 * the third-party scripts by URL and the security headers with per-request nonces blanked.
 */
export async function fingerprintCheckoutPage(
  serve: (url: string) => Promise<ServedResponse>,
  inventory: readonly InventoryScript[],
): Promise<PageFingerprint> {
  const page = await serve(FINGERPRINT_PAGE_URL);
  const html = page.rawPayload.toString('utf8');
  const headers: Record<string, string> = { status: String(page.statusCode) };
  for (const name of WATCHED_HEADERS) {
    const value = headerText(page.headers[name]);
    if (value !== null) headers[name] = value.replace(/'nonce-[^']*'/g, "'nonce'");
  }
  const tags = tagsOf(html)
    .filter((tag) => tag.tag === 'script' || /\b(modulepreload|stylesheet|preload)\b/i.test(tag.attributes.get('rel') ?? ''))
    // A JSON data block carries per-page data and never runs: only its presence counts.
    .map((tag) => ({
      tag: tag.tag,
      url: tag.attributes.get('src') ?? tag.attributes.get('href') ?? null,
      integrity: tag.attributes.get('integrity') ?? null,
      type: tag.attributes.get('type') ?? tag.attributes.get('rel') ?? null,
      inlineSha256: tag.inline === null ? null : tag.attributes.get('type') === 'application/json' ? 'data' : sha256(tag.inline),
    }));

  const firstParty = new Set(inventory.filter((script) => script.party === 'first').map((script) => script.path));
  for (const tag of tags) if (tag.url?.startsWith('/')) firstParty.add(tag.url.split(/[?#]/)[0]!);
  const scripts: PageFingerprint['scripts'] = [];
  for (const url of [...firstParty].sort()) {
    const asset = await serve(url);
    scripts.push(
      asset.statusCode === 200
        ? { url, sha384: sha384(asset.rawPayload), size: asset.rawPayload.length }
        : { url, sha384: `status-${asset.statusCode}`, size: null },
    );
  }
  for (const script of inventory) {
    if (script.party === 'third') scripts.push({ url: `${script.origin}${script.path}`, sha384: null, size: null });
  }
  return { scripts, tags, headers };
}

export type ChangeObserver = (change: CheckoutPageChange) => void;

/**
 * The checkout page's integrity, for one server: its build hashed once at start (SRI and the
 * inventory), the page's current fingerprint, and the check that compares it with each account's
 * baseline. Observers (a metrics counter) hear of every change opened.
 */
export interface CheckoutPageIntegrity {
  readonly build: CheckoutBuild | null;
  /** The import map's CSP hash source, to add to script-src; null when the page is not built. */
  readonly scriptHashSource: string | null;
  /** The page's HTML with SRI on every first-party tag and the integrity import map. */
  secureHtml(html: string): string;
  /** The script inventory of this build and CSP (both fixed for the process): built once, on first use. */
  inventory(): readonly InventoryScript[];
  /** The fingerprint of the page served now (computed on first use and by every `check`). */
  current(): Promise<{ fingerprint: PageFingerprint; digest: string }>;
  /** Fingerprints the page again and records a change for every account whose baseline differs. */
  check(deps: Deps): Promise<CheckoutPageChange[]>;
  /**
   * An account's checkout page was served: the first time, the current fingerprint becomes its
   * baseline. Asks the database once per account and process, then remembers the account.
   */
  served(deps: Deps, accountId: string): Promise<void>;
  onChange(observer: ChangeObserver): () => void;
}

export async function openCheckoutPageIntegrity(options: {
  webRoot: string;
  /** The page's CSP as served, for the third-party part of the inventory. */
  policy: () => string;
  serve: (url: string) => Promise<ServedResponse>;
  reporter?: ErrorReporter;
}): Promise<CheckoutPageIntegrity> {
  const build = readCheckoutBuild(options.webRoot);
  const importMap = build ? await integrityImportMap(build) : null;
  const observers = new Set<ChangeObserver>();
  let latest: { fingerprint: PageFingerprint; digest: string } | null = null;
  let scripts: readonly InventoryScript[] | null = null;
  const inventory = () => (scripts ??= checkoutPageInventory(build, options.policy()));
  // Accounts known to have a baseline: a baseline is replaced, never removed, so this only grows.
  const withBaseline = new Set<string>();
  const fingerprint = async () => {
    const fingerprint = await fingerprintCheckoutPage(options.serve, inventory());
    latest = { fingerprint, digest: await fingerprintDigest(fingerprint) };
    return latest;
  };
  return {
    build,
    scriptHashSource: importMap?.cspSource ?? null,
    secureHtml: (html) => (build && importMap ? addSubresourceIntegrity(html, build, importMap) : html),
    inventory,
    current: async () => latest ?? fingerprint(),
    async check(deps) {
      const { fingerprint: current, digest } = await fingerprint();
      const opened = await detectCheckoutPageChanges(deps, { fingerprint: current, digest });
      for (const change of opened) {
        options.reporter?.captureMessage(`The checkout page changed from the approved baseline (${change.differences.length} differences)`, {
          tags: { account: change.accountId, checkout_page_change: change.id },
        });
        for (const observer of observers) {
          try {
            observer(change);
          } catch {
            // An observer's failure must not stop the alert reaching the others.
          }
        }
      }
      return opened;
    },
    async served(deps, accountId) {
      if (withBaseline.has(accountId)) return;
      const { fingerprint: current, digest } = latest ?? (await fingerprint());
      await recordFirstCheckoutPageBaseline(deps, { accountId, fingerprint: current, digest });
      withBaseline.add(accountId);
    },
    onChange(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
  };
}

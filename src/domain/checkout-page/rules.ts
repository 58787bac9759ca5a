import { sha256Hex } from '../shared/digest';
import type { PageFingerprint, FingerprintDifference } from './entities';

/** PCI DSS 11.6.1: at least weekly. The default is every hour. */
export const PAGE_CHECK_DEFAULT_MINUTES = 60;
export const PAGE_CHECK_MAX_MINUTES = 7 * 24 * 60;
/** How long CSP reports are kept. */
export const CSP_REPORT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of the fingerprint's canonical JSON (order of scripts, tags and headers does not matter). */
export async function fingerprintDigest(fingerprint: PageFingerprint): Promise<string> {
  const sorted: PageFingerprint = {
    scripts: [...fingerprint.scripts].sort((a, b) => canonical(a).localeCompare(canonical(b))),
    tags: [...fingerprint.tags].sort((a, b) => canonical(a).localeCompare(canonical(b))),
    headers: fingerprint.headers,
  };
  return sha256Hex(canonical(sorted));
}

const tagKey = (tag: PageFingerprint['tags'][number]) => `${tag.tag} ${tag.url ?? `inline:${tag.inlineSha256}`} ${tag.type ?? ''}`;
const tagValue = (tag: PageFingerprint['tags'][number]) => tag.integrity ?? tag.inlineSha256 ?? '';

/** What differs between the approved page and the page served now, in a stable order. */
export function compareFingerprints(baseline: PageFingerprint, current: PageFingerprint): FingerprintDifference[] {
  const differences: FingerprintDifference[] = [];
  const before = new Map(baseline.scripts.map((s) => [s.url, s.sha384 ?? 'origin-pinned']));
  const after = new Map(current.scripts.map((s) => [s.url, s.sha384 ?? 'origin-pinned']));
  for (const [url, hash] of after) {
    if (!before.has(url)) differences.push({ kind: 'script_added', subject: url, before: null, after: hash });
    else if (before.get(url) !== hash) differences.push({ kind: 'script_changed', subject: url, before: before.get(url)!, after: hash });
  }
  for (const [url, hash] of before) if (!after.has(url)) differences.push({ kind: 'script_removed', subject: url, before: hash, after: null });

  const tagsBefore = new Map(baseline.tags.map((t) => [`${tagKey(t)} ${tagValue(t)}`, t]));
  const tagsAfter = new Map(current.tags.map((t) => [`${tagKey(t)} ${tagValue(t)}`, t]));
  for (const [key, tag] of tagsAfter) {
    if (!tagsBefore.has(key))
      differences.push({ kind: 'tag_added', subject: tag.url ?? `inline:${tag.inlineSha256}`, before: null, after: tagValue(tag) || tag.tag });
  }
  for (const [key, tag] of tagsBefore) {
    if (!tagsAfter.has(key))
      differences.push({ kind: 'tag_removed', subject: tag.url ?? `inline:${tag.inlineSha256}`, before: tagValue(tag) || tag.tag, after: null });
  }

  const names = new Set([...Object.keys(baseline.headers), ...Object.keys(current.headers)]);
  for (const name of [...names].sort()) {
    const was = baseline.headers[name] ?? null;
    const now = current.headers[name] ?? null;
    if (was !== now) differences.push({ kind: 'header_changed', subject: name, before: was, after: now });
  }
  return differences.sort((a, b) => a.kind.localeCompare(b.kind) || a.subject.localeCompare(b.subject));
}

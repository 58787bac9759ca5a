import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Mode } from '../../domain/shared/events';
import type { WebhookUrlPolicy } from '../../domain/webhooks/ports';

/**
 * Addresses a live-mode webhook may never reach (SSRF, design.md §5): private, loopback, link-local,
 * shared, unspecified, multicast and reserved ranges of both families.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, compatible, NAT64), if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const v4 = () => `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  const zeroPrefix = g.slice(0, 5).every((x) => x === 0);
  if (zeroPrefix && (g[5] === 0xffff || (g[5] === 0 && (g[6] ?? 0) !== 0))) return v4();
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4();
  return null;
}

/** Whether an IP address (v4 or v6, literal) is one a live webhook must not reach. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return blocked.check(v4, 'ipv4');
  return blocked.check(bare.split('%')[0]!, 'ipv6');
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * design.md §5 for webhook URLs. Live mode: https only, and the host (a literal or every address its
 * name resolves to) must be public. Test mode: http or https anywhere, so `http://localhost` works
 * during development.
 */
export function webhookUrlPolicy(resolve: Resolver = systemResolver): WebhookUrlPolicy {
  return {
    async check(raw: string, mode: Mode) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return { allowed: false, reason: 'must be an absolute URL' };
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return { allowed: false, reason: 'must be an http(s) URL' };
      if (url.username || url.password) return { allowed: false, reason: 'must not contain credentials' };
      if (mode === 'test') return { allowed: true };
      if (url.protocol !== 'https:') return { allowed: false, reason: 'must use https in live mode' };
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const addresses = isIP(host) ? [host] : await resolve(host).catch(() => null);
      if (!addresses || addresses.length === 0) return { allowed: false, reason: `host ${host} does not resolve` };
      if (addresses.some(isForbiddenAddress)) {
        return { allowed: false, reason: 'must not point at a private, loopback or link-local address in live mode' };
      }
      return { allowed: true };
    },
  };
}

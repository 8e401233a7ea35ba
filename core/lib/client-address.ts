import { isIPv4, isIPv6 } from 'node:net';

/**
 * Normalizes a client address for per-address throttling: IPv4 as is (an IPv4-mapped IPv6
 * address becomes its IPv4 form), IPv6 reduced to its /64 prefix (one customer usually holds a
 * whole /64, so per-address limits on full IPv6 addresses are trivial to dodge). Anything that is
 * not an IP address gives null (no per-address limit can apply).
 *
 * @returns e.g. `203.0.113.7` or `2001:db8:1:2::/64`, or null.
 */
export function normalizeClientAddress(address: string | null): string | null {
  if (!address) return null;
  let a = address.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1]!;
  if (isIPv4(a)) return a;
  if (!isIPv6(a)) return null;
  const groups = expandIPv6(a);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (embedded IPv4 tails included). */
function expandIPv6(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
}

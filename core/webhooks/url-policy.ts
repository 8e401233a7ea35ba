import { isIP } from 'node:net';

/**
 * True for addresses a tenant-controlled outbound request must not reach in production mode:
 * loopback, unspecified, private (RFC 1918, RFC 4193 ULA), link-local (incl. cloud metadata
 * 169.254.169.254), carrier-grade NAT, multicast and reserved ranges, and IPv4-mapped forms of
 * those (OWASP SSRF prevention; issue 12 item 7).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPrivateV4(address);
  if (family !== 6) return true;
  const a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return isPrivateV4(mapped[1]!);
  if (a === '::' || a === '::1') return true;
  const first = parseInt(a.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // multicast
  return false;
}

function isPrivateV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return a === 0 || a === 10 || a === 127 || a >= 224
    || (a === 100 && b >= 64 && b <= 127)
    || (a === 169 && b === 254)
    || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168)
    || (a === 192 && b === 0)
    || (a === 198 && (b === 18 || b === 19));
}

/**
 * Checks a webhook endpoint URL: absolute http(s), no credentials, and in production mode no
 * literal private address or `localhost` (names are checked again at connect time, see
 * `deliver.ts`, so DNS cannot smuggle one in).
 *
 * @returns an error message naming the problem, or null when the URL is acceptable.
 */
export function webhookUrlProblem(raw: string, environment: 'development' | 'production' | 'test'): string | null {
  let url: URL;
  try { url = new URL(raw); } catch { return 'url must be an absolute http or https URL'; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  if (url.username || url.password) return 'url must not contain credentials';
  if (environment !== 'production') return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'url must not point at this machine in production mode';
  if (isIP(host) && isPrivateAddress(host)) return 'url must not point at a loopback, link-local or private address in production mode';
  return null;
}

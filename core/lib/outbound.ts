import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { connect, isIP, type Socket } from 'node:net';

/**
 * Outbound connections to hosts a tenant chose (a project's SMTP server, webhook endpoints):
 * in production mode they must not reach this machine or its private networks (server-side
 * request forgery; OWASP SSRF prevention cheat sheet, ASVS 5.0 V1.3 / V15.3). The address is
 * checked after DNS resolution and the connection goes to that very address, so a name that
 * resolves differently the second time (DNS rebinding) gains nothing.
 */

/**
 * True for addresses a tenant-controlled outbound request must not reach in production mode:
 * loopback, unspecified, private (RFC 1918, RFC 4193 unique local), link-local (including the
 * cloud metadata address 169.254.169.254), carrier-grade NAT (RFC 6598), benchmarking, multicast
 * and reserved ranges, and IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms of those. Anything
 * that is not an IP address counts as private (refuse what cannot be classified).
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPrivateV4(address);
  if (family !== 6) return true;
  const words = ipv6Words(address);
  if (!words) return true;
  const embedded = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeroPrefix = (n: number) => words.slice(0, n).every((w) => w === 0);
  if (zeroPrefix(8) || (zeroPrefix(7) && words[7] === 1)) return true; // :: and ::1
  if (zeroPrefix(5) && words[5] === 0xffff) return isPrivateV4(embedded(words[6]!, words[7]!)); // ::ffff:a.b.c.d
  if (zeroPrefix(6)) return isPrivateV4(embedded(words[6]!, words[7]!)); // ::a.b.c.d (deprecated)
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0))
    return isPrivateV4(embedded(words[6]!, words[7]!)); // 64:ff9b::/96 NAT64
  if (words[0] === 0x2002) return isPrivateV4(embedded(words[1]!, words[2]!)); // 6to4
  const first = words[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && words[1]! < 0x200) return true; // 2001::/23 IETF protocol assignments (Teredo, benchmarking…)
  if (first === 0x2001 && words[1] === 0xdb8) return true; // documentation
  if (first === 0x100 && words.slice(1, 4).every((w) => w === 0)) return true; // 100::/64 discard
  return false;
}

function isPrivateV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

/** The eight 16-bit words of an IPv6 address (zone id dropped, dotted tail converted), or null. */
function ipv6Words(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const words = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** Raised (as `code: 'EPRIVATEADDRESS'`) when a tenant-chosen host is on a refused network. */
export const PRIVATE_ADDRESS_ERROR = 'EPRIVATEADDRESS';

function privateAddressError(): NodeJS.ErrnoException {
  return Object.assign(new Error('the host resolves to a loopback, link-local or private address, which is refused in production mode'), {
    code: PRIVATE_ADDRESS_ERROR,
  });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` / `net.connect` that fails with EPRIVATEADDRESS when any address
 * of the name is private: the socket then connects to the address this lookup returned, never
 * to a second resolution. IP literals never reach a lookup: check them with isPrivateAddress
 * before connecting (connectToPublicHost does both).
 */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, []);
      return;
    }
    const list = addresses as LookupAddress[];
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) {
      callback(privateAddressError(), []);
      return;
    }
    if ((options as { all?: boolean }).all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
}

/**
 * Opens a TCP connection to `host:port`. With `allowPrivate` false (production mode) the host
 * (an IP literal, or every address its name resolves to) must be public, and the socket
 * connects to the checked address. Resolves once connected.
 *
 * @throws Error with `code` EPRIVATEADDRESS (refused), a DNS code, ECONNREFUSED, or ETIMEDOUT
 *   after `timeoutMs`.
 */
export function connectToHost(host: string, port: number, options: { allowPrivate: boolean; timeoutMs: number }): Promise<Socket> {
  const literal = host.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(literal) && isPrivateAddress(literal)) return Promise.reject(privateAddressError());
  return new Promise((resolve, reject) => {
    const socket = connect({ host: literal, port, ...(options.allowPrivate || isIP(literal) ? {} : { lookup: publicOnlyLookup }) });
    const timer = setTimeout(
      () => socket.destroy(Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' })),
      options.timeoutMs,
    );
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

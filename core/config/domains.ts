/**
 * Trusted-domain patterns and redirect-URL checks (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts "Redirect URLs must be
 * whitelisted", trusted domain rules, production-mode rules).
 *
 * A pattern is a URL whose host may contain `*` (any characters but a dot) or `**` (any
 * characters), e.g. `https://*.example.com` or `http://localhost:3000`.
 */

const HOST_PATTERN_CHARS = /^[a-zA-Z0-9.*-]+$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

interface SplitUrl {
  protocol: string;
  credentials: string | null;
  host: string;
  port: string;
  rest: string;
}

function split(url: string): SplitUrl | null {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(url);
  if (!m) return null;
  const [, protocol, authority, rest] = m as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const credentials = at >= 0 ? authority.slice(0, at) : null;
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    if (end < 0) return null;
    return { protocol: protocol.toLowerCase(), credentials, host: hostPort.slice(0, end + 1), port: hostPort.slice(end + 2), rest };
  }
  const colon = hostPort.lastIndexOf(':');
  return colon >= 0
    ? { protocol: protocol.toLowerCase(), credentials, host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1), rest }
    : { protocol: protocol.toLowerCase(), credentials, host: hostPort, port: '', rest };
}

/** True for `localhost` or a dotted alphanumeric hostname whose top-level part has 2+ letters. */
export function isValidHostname(host: string): boolean {
  if (host === 'localhost') return true;
  return /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(host.toLowerCase());
}

/**
 * True when `pattern` is an acceptable trusted-domain entry: an http(s) URL without spaces whose
 * host uses only letters, digits, dots, hyphens and `*`, does not start or end with a dot, has no
 * consecutive dots, and whose credentials, path, query and hash contain no wildcard.
 */
export function isValidDomainUrl(pattern: string): boolean {
  if (/\s/.test(pattern)) return false;
  const parts = split(pattern);
  if (!parts) return false;
  if (parts.protocol !== 'http' && parts.protocol !== 'https') return false;
  if (parts.credentials !== null && parts.credentials.includes('*')) return false;
  if (parts.rest.includes('*')) return false;
  if (parts.port && !/^\d{1,5}$/.test(parts.port)) return false;
  const host = parts.host;
  if (!host) return false;
  if (host.includes('*')) {
    if (!HOST_PATTERN_CHARS.test(host) || host.startsWith('.') || host.endsWith('.') || host.includes('..')) return false;
    return true;
  }
  if (IPV4.test(host) || host.startsWith('[')) return true;
  if (!HOST_PATTERN_CHARS.test(host) || host.startsWith('.') || host.endsWith('.') || host.includes('..')) return false;
  return isValidHostname(host);
}

/** True when a domain may be trusted by a production-mode project: HTTPS, not localhost, not an IP. */
export function isProductionSafeDomainUrl(pattern: string): boolean {
  const parts = split(pattern);
  if (!parts || parts.protocol !== 'https') return false;
  const host = parts.host.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || IPV4.test(host) || host.startsWith('[')) return false;
  return isValidDomainUrl(pattern);
}

function hostMatches(pattern: string, host: string): boolean {
  const re = pattern
    .toLowerCase()
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^.]*' : part.replace(/[.+?^${}()|[\]\\-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${re}$`).test(host.toLowerCase());
}

const defaultPort = (protocol: string) => (protocol === 'https' ? '443' : protocol === 'http' ? '80' : '');

/**
 * True when `url` may be used as a redirect or callback target: its origin is localhost (when
 * `allowLocalhost`), one of `extraOrigins` (the server's own hosted pages), or matches a trusted
 * domain pattern (same protocol and port, host matched with wildcards).
 */
export function isRedirectUrlTrusted(
  url: string,
  options: { allowLocalhost: boolean; domains: readonly { domain: string }[]; extraOrigins?: readonly string[] },
): boolean {
  if (/\s/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (options.extraOrigins?.includes(parsed.origin)) return true;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (options.allowLocalhost && (host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '::1'))
    return true;
  const protocol = parsed.protocol.slice(0, -1);
  const port = parsed.port || defaultPort(protocol);
  return options.domains.some(({ domain }) => {
    const p = split(domain);
    if (!p || p.protocol !== protocol) return false;
    if ((p.port || defaultPort(p.protocol)) !== port) return false;
    return hostMatches(p.host, parsed.hostname);
  });
}

/**
 * True when a bare hostname (no scheme or port; e.g. the `hostname` Cloudflare Turnstile reports
 * for a solved challenge) belongs to the project: localhost when `allowLocalhost`, the host of one
 * of `extraOrigins`, or the host of a trusted domain pattern (wildcards as for redirects, any
 * scheme and port).
 */
export function isHostnameTrusted(
  hostname: string,
  options: { allowLocalhost: boolean; domains: readonly { domain: string }[]; extraOrigins?: readonly string[] },
): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (!host || /[\s/:@]/.test(host.replace(/^[0-9a-f:]+$/, ''))) return false;
  if (options.allowLocalhost && (host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '::1'))
    return true;
  if (
    options.extraOrigins?.some((origin) => {
      try {
        return new URL(origin).hostname.replace(/^\[|\]$/g, '') === host;
      } catch {
        return false;
      }
    })
  )
    return true;
  return options.domains.some(({ domain }) => {
    const p = split(domain);
    return p !== null && hostMatches(p.host, host);
  });
}

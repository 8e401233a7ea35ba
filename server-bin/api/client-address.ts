/**
 * The client address of an HTTP request as a host should pass it to core: the socket's peer,
 * unless `trustedProxyHops` > 0, in which case the `X-Forwarded-For` entry added by the outermost
 * trusted proxy (the `trustedProxyHops`-th from the right; entries further left are whatever the
 * client claimed and are never used). Falls back to the peer when the header has too few entries.
 */
export function clientAddressFromRequest(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxyHops: number,
): string | null {
  if (trustedProxyHops > 0 && forwardedFor) {
    const hops = forwardedFor
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = hops[hops.length - trustedProxyHops];
    if (entry) return entry;
  }
  return peer ?? null;
}

/**
 * The caller's preferred language as core should see it: the hosted pages' explicit choice
 * (`x-gatehouse-locale`), else the first tag of `Accept-Language` (RFC 9110 §12.5.4; weights
 * ignored: browsers list the preferred one first), else null. Core validates the tag's shape.
 */
export function requestLocale(chosen: string | undefined, acceptLanguage: string | undefined): string | null {
  if (chosen) return chosen;
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return first && first !== '*' ? first : null;
}

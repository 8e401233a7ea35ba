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

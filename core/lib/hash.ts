import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * SHA-256 of a high-entropy secret, as lowercase hex. Used to store refresh tokens, codes and API
 * keys at rest: they carry 224 bits of randomness, so a fast hash is enough and lookups can use an
 * index on the hash instead of a per-row comparison.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two strings in time independent of where they differ (only the lengths may leak). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

import { createHash } from 'node:crypto';

/** base64url SHA-256 of an id or user code: how `oauth_provider_payloads` keys the provider's instances. */
export function payloadHash(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

import { crc32 } from 'node:zlib';
import { secureRandomString } from '../lib/random.ts';

/** The marker every user / team API key carries (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/user-api-keys/). */
export const API_KEY_MARKER = '574ck4u7h';

export type ApiKeyType = 'user' | 'team';

/** CRC32 of the UTF-8 bytes of `text`, as 8 lowercase hex digits. */
function checksum(text: string): string {
  return crc32(Buffer.from(text, 'utf8')).toString(16).padStart(8, '0');
}

/**
 * A new API key secret for key `id` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/user-api-keys/), in order: `sk` or `pk` (public), `_`,
 * 45 random Crockford base32 characters, the id's 32 hex digits (no dashes), `user` or `team`, one
 * scanner-flag character, the marker `574ck4u7h`, then the CRC32 (8 hex digits) of everything
 * before it. The flag is base32 of (1 for self-hosted, never the cloud) + (2 if public): `1` or `3`.
 */
export function createApiKeySecret(options: { id: string; type: ApiKeyType; isPublic: boolean }): string {
  const flag = (1 + (options.isPublic ? 2 : 0)).toString(32);
  const body = `${options.isPublic ? 'pk' : 'sk'}_${secureRandomString()}${options.id.replace(/-/g, '')}${options.type}${flag}${API_KEY_MARKER}`;
  return body + checksum(body);
}

const FORMAT = new RegExp(`^([^_]+)_(.{45})([0-9a-f]{32})(user|team)(.)${API_KEY_MARKER}([0-9a-f]{8})$`);

/**
 * Parses a secret made by `createApiKeySecret` and verifies its checksum.
 *
 * @returns the key id (dashed UUID), type and public flag, or null when the format or the
 *   checksum is wrong.
 */
export function parseApiKeySecret(secret: string): { id: string; type: ApiKeyType; isPublic: boolean } | null {
  const m = FORMAT.exec(secret);
  if (!m) return null;
  if (checksum(secret.slice(0, -8)) !== m[6]) return null;
  const hex = m[3]!;
  const flag = parseInt(m[5]!, 32);
  return {
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    type: m[4] as ApiKeyType,
    isPublic: Number.isFinite(flag) && (flag & 2) !== 0,
  };
}

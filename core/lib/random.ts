import { randomBytes, randomUUID } from 'node:crypto';

/** Crockford base32 alphabet, lowercase (0-9, a-z without i, l, o, u). */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A cryptographically random string of lowercase Crockford base32 characters.
 *
 * The default of 224 bits gives 45 characters, the format of refresh tokens, verification codes
 * and key material (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/tokens.tsx, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx; upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts "Random string default").
 */
export function secureRandomString(bits = 224): string {
  const chars = Math.ceil(bits / 5);
  const bytes = randomBytes(chars);
  let out = '';
  for (let i = 0; i < chars; i++) out += CROCKFORD[bytes[i]! & 31];
  return out;
}

/** A random UUID v4, the id format of every row. */
export function uuid(): string {
  return randomUUID();
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** True for a UUID v4 string (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts: "Ids are checked as UUID v4"). */
export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}

/** True for any RFC 4122 UUID string, the project-id form the official SDK accepts. */
export function isUuid(value: string): boolean {
  return UUID_ANY.test(value);
}

import { randomBytes, scrypt } from 'node:crypto';
import { open, seal } from '../lib/secret-box.ts';

/**
 * Passphrase sealing of an export's secrets (password hashes, TOTP secrets): a leaked export file
 * is not a credential dump. The key is scrypt (RFC 7914) of the passphrase and the export's
 * random salt; each user's secrets are one AES-256-GCM box (core/lib/secret-box.ts) bound to the
 * user's id, so a box moved to another record fails to open.
 */

/** scrypt cost of the export key: N = 2^15, r = 8, p = 1 (about 32 MiB and 100 ms, once per export). */
export const EXPORT_KDF = { name: 'scrypt', N: 2 ** 15, r: 8, p: 1 } as const;

/** Shortest passphrase accepted for an export with secrets. */
export const EXPORT_PASSPHRASE_MIN_LENGTH = 12;

/** The secrets of one user inside an export's sealed box. */
export interface ExportSecrets {
  password_hash: string | null;
  totp_secret_base64: string | null;
}

/** A new random export salt (16 bytes, base64url). */
export function newExportSalt(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The 32-byte key of an export from its passphrase and salt (base64url), off the event loop
 * (node's scrypt runs on the libuv pool).
 *
 * @throws Error when scrypt fails (never for valid parameters).
 */
export function deriveExportKey(passphrase: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      passphrase.normalize('NFC'),
      Buffer.from(salt, 'base64url'),
      32,
      { N: EXPORT_KDF.N, r: EXPORT_KDF.r, p: EXPORT_KDF.p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

const aad = (userId: string) => `gatehouse-export:${userId}`;

/** Seals one user's secrets under the export key. @returns the box, `v1.<nonce>.<ciphertext>.<tag>`. */
export function sealExportSecrets(key: Buffer, userId: string, secrets: ExportSecrets): string {
  return seal(key, JSON.stringify(secrets), aad(userId));
}

/**
 * Opens a user's sealed secrets.
 *
 * @returns the secrets, or null when the passphrase is wrong, the box was altered or belongs to
 *   another user.
 */
export function openExportSecrets(key: Buffer, userId: string, box: string): ExportSecrets | null {
  const text = open(key, box, aad(userId));
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<ExportSecrets>;
    return { password_hash: value.password_hash ?? null, totp_secret_base64: value.totp_secret_base64 ?? null };
  } catch {
    return null;
  }
}

import { open, seal } from '../lib/secret-box.ts';
import type { Runtime } from '../runtime.ts';

/** HKDF `info` of the key that encrypts TOTP secrets at rest. */
const TOTP_KEY_INFO = 'totp-secrets';

/**
 * The stored form of a user's TOTP secret (`totp_secret_base64` as given on the wire): sealed with
 * AES-256-GCM under a key derived from the server secret and bound to `project:user`, so a
 * database dump alone does not reveal second factors, and a value copied to another user fails.
 */
export function sealTotpSecret(runtime: Runtime, projectId: string, userId: string, secretBase64: string): string {
  return seal(runtime.deriveKey(TOTP_KEY_INFO), secretBase64, `${projectId}:${userId}`);
}

/**
 * The base64 TOTP secret of a stored value: sealed values (`v1.…`) are opened; a value without a
 * `.` is a secret stored before encryption and is returned as is (base64 has no `.`).
 *
 * @returns the base64 secret, or null when there is none or it cannot be opened.
 */
export function openTotpSecret(
  runtime: Runtime,
  user: { project_id: string; id: string; totp_secret_base64: string | null },
): string | null {
  const stored = user.totp_secret_base64;
  if (stored === null) return null;
  if (!stored.includes('.')) return stored;
  return open(runtime.deriveKey(TOTP_KEY_INFO), stored, `${user.project_id}:${user.id}`);
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encrypts a string with AES-256-GCM (NIST SP 800-38D): a random 96-bit nonce, the ciphertext and
 * the 128-bit tag, as `v1.<nonce>.<ciphertext>.<tag>` in base64url. `aad` binds the ciphertext to
 * its context (e.g. a row's project and account), so a value copied to another row fails to open.
 *
 * @param key 32 bytes, e.g. `runtime.deriveKey('oauth-tokens')`
 */
export function seal(key: Buffer, plaintext: string, aad = ''): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/**
 * Opens a value made by `seal` with the same key and `aad`.
 *
 * @returns the plaintext, or null when the value is malformed, was made with another key or
 * context, or was altered.
 */
export function open(key: Buffer, sealed: string, aad = ''): string | null {
  const [version, nonce, ciphertext, tag] = sealed.split('.');
  if (version !== 'v1' || nonce === undefined || ciphertext === undefined || tag === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * TOTP enrolment helpers for browsers and Node (RFC 6238 with the parameters Gatehouse and Stack
 * Auth use: HMAC-SHA-1, 30-second steps, 6 digits). Built on Web Crypto so the hosted pages carry
 * no extra library; `sdk/totp.test.ts` checks the codes against the `otpauth` package the server
 * uses.
 */

/** A new random 20-byte (160-bit) TOTP secret, the size RFC 4226 §4 recommends. */
export function generateTotpSecret(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(20));
}

/** Standard base64 of `bytes`: the `totp_secret_base64` field of `PATCH /users/me`. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how authenticator apps take a secret typed by hand. */
export function toBase32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The `otpauth://totp/…` URI an authenticator app scans from a QR code (Google Authenticator
 * key-uri format): label `issuer:account`, with secret, issuer, algorithm, digits and period.
 */
export function totpAuthUri(options: { secret: Uint8Array; account: string; issuer: string }): string {
  const label = `${encodeURIComponent(options.issuer)}:${encodeURIComponent(options.account)}`;
  // Percent-encoding, not form encoding: authenticator apps read `+` literally.
  return `otpauth://totp/${label}?secret=${toBase32(options.secret)}&issuer=${encodeURIComponent(options.issuer)}&algorithm=SHA1&digits=6&period=30`;
}

/** The 6-digit code of `secret` for RFC 6238 time step `step` (RFC 4226 §5.3 dynamic truncation). */
export async function totpForStep(secret: Uint8Array, step: number): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-1' }, false, [
    'sign',
  ]);
  const counter = new ArrayBuffer(8);
  const view = new DataView(counter);
  view.setUint32(0, Math.floor(step / 2 ** 32));
  view.setUint32(4, step >>> 0);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, counter));
  const offset = mac[19]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * True when `code` is the code of `secret` at `nowMs`, or of the step before or after (the
 * drift the server allows too). Used to check an enrolment before the secret is saved.
 */
export async function verifyTotp(secret: Uint8Array, code: string, nowMs: number): Promise<boolean> {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  const step = Math.floor(nowMs / 30_000);
  for (const s of [step - 1, step, step + 1]) if ((await totpForStep(secret, s)) === token) return true;
  return false;
}

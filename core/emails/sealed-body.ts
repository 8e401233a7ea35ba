import { open, seal } from '../lib/secret-box.ts';
import type { Runtime } from '../runtime.ts';

/** HKDF `info` of the key that encrypts the live content of emails carrying codes. */
const KEY_INFO = 'gatehouse email outbox bodies v1';

/** Marker that replaces a code or link secret in stored email content. */
export const REDACTED = '[redacted]';

/** What an email says: the parts that may carry a secret. */
export interface EmailContent {
  subject: string;
  html: string;
  text: string | null;
}

/** `value` with every occurrence of each secret replaced by {@link REDACTED}; longest secrets first. */
export function redact(value: string, secrets: readonly string[]): string {
  let out = value;
  for (const s of [...secrets].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Encrypts an email's live content (AES-256-GCM under a key derived from the server secret, bound
 * to the email's id), so a code or sign-in link is never stored in clear.
 */
export function sealContent(runtime: Runtime, emailId: string, content: EmailContent): string {
  return seal(runtime.deriveKey(KEY_INFO), JSON.stringify(content), emailId);
}

/** Decrypts content sealed by {@link sealContent}; null when it does not open (wrong key or id). */
export function openContent(runtime: Runtime, emailId: string, sealed: string): EmailContent | null {
  const text = open(runtime.deriveKey(KEY_INFO), sealed, emailId);
  return text === null ? null : (JSON.parse(text) as EmailContent);
}

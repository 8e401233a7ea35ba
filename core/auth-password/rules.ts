import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { isPredictablePassword } from './predictable.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../lib/password-limits.ts';

let common: Promise<ReadonlySet<string>> | undefined;

/**
 * The blocklist (NIST SP 800-63B-4 §3.1.1.2; ASVS 5.0 V6.2.4): the passwords of at least
 * `PASSWORD_MIN_LENGTH` characters in zxcvbn-ts's ranked list of common passwords
 * (`@zxcvbn-ts/language-common`, about 18,000 of its 49,000 entries; bundled, no network), lowercased.
 * Loaded on first use (one decompression of about 0.1 s), then kept.
 */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].filter((p) => p.length >= PASSWORD_MIN_LENGTH).map((p) => p.toLowerCase())),
  );
  return common;
}

/**
 * Checks a new password: its length (upstream's rules and errors), then, beyond upstream, that it
 * is not one of the most common passwords, not repetitive or sequential
 * (`aaaaaaaa`, `12345678`, `qwertyui`: predictable.ts), and not the
 * account's email address or the part of it before the `@`. No composition rules (NIST SP
 * 800-63B-4 §3.1.1.2).
 *
 * @param context.email the account's email, when known.
 * @throws KnownError PASSWORD_TOO_SHORT `{min_length: 8}`, PASSWORD_TOO_LONG `{maxLength: 70}`, or
 *   PASSWORD_REQUIREMENTS_NOT_MET `{message, reason: "common_password" | "predictable_password" | "matches_email"}`
 *   (upstream's parent code of the two; the official SDK rebuilds it from `details.message`).
 */
export async function assertPasswordAcceptable(password: string, context: { email?: string | null } = {}): Promise<void> {
  if (password.length < PASSWORD_MIN_LENGTH) throw new KnownError('PASSWORD_TOO_SHORT', { min_length: PASSWORD_MIN_LENGTH });
  assertPasswordNotTooLong(password);
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower)) {
    throw new KnownError('PASSWORD_REQUIREMENTS_NOT_MET', {
      message: 'This password is too common. Please choose a less predictable one.',
      reason: 'common_password',
    });
  }
  if (isPredictablePassword(password)) {
    throw new KnownError('PASSWORD_REQUIREMENTS_NOT_MET', {
      message: 'This password is too predictable (repeated or sequential characters). Please choose a less predictable one.',
      reason: 'predictable_password',
    });
  }
  if (context.email) {
    const email = normalizeEmail(context.email);
    const local = email.slice(0, email.lastIndexOf('@'));
    if (lower === email || lower === local) {
      throw new KnownError('PASSWORD_REQUIREMENTS_NOT_MET', {
        message: 'The password must not be your email address.',
        reason: 'matches_email',
      });
    }
  }
}

/** The maximum alone. @throws KnownError PASSWORD_TOO_LONG `{maxLength: 70}`. */
export function assertPasswordNotTooLong(password: string): void {
  if (password.length > PASSWORD_MAX_LENGTH) throw new KnownError('PASSWORD_TOO_LONG', { maxLength: PASSWORD_MAX_LENGTH });
}

/** The errors `assertPasswordAcceptable` raises, for an operation's `errors` list. */
export const PASSWORD_RULE_ERRORS = ['PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG', 'PASSWORD_REQUIREMENTS_NOT_MET'] as const;

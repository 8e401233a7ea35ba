import { KnownError } from '../errors/index.ts';

/** Password length limits (product-spec §5, §9; wire-protocol §7). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

/**
 * Checks a new password's length.
 *
 * @throws KnownError PASSWORD_TOO_SHORT `{min_length: 8}` or PASSWORD_TOO_LONG `{maxLength: 70}`.
 */
export function assertPasswordAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw new KnownError('PASSWORD_TOO_SHORT', { min_length: PASSWORD_MIN_LENGTH });
  assertPasswordNotTooLong(password);
}

/** The maximum alone. @throws KnownError PASSWORD_TOO_LONG `{maxLength: 70}`. */
export function assertPasswordNotTooLong(password: string): void {
  if (password.length > PASSWORD_MAX_LENGTH) throw new KnownError('PASSWORD_TOO_LONG', { maxLength: PASSWORD_MAX_LENGTH });
}

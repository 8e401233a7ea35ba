import type { Updateable } from 'kysely';
import { KnownError, StatusError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { toJsonText } from '../lib/json-text.ts';
import type { UsersTable } from '../storage/tables.ts';
import {
  assertPasswordAcceptable,
  assertPasswordNotTooLong,
  hashPassword,
  isSupportedPasswordHash,
  type PasswordHashCost,
} from '../auth-password/index.ts';
import type { ServerUserCreate } from './schemas.ts';

/**
 * Turns wire user fields (create or update body) into column changes. Hashes a given password
 * with argon2id at `hashCost` (the core's), so call it before opening a transaction.
 *
 * @throws KnownError PASSWORD_TOO_SHORT (updates only) / PASSWORD_TOO_LONG; StatusError 400 when both
 *   `password` and `password_hash` are given, for a hash no format of core/auth-password/
 *   hash-formats.ts accepts (upstream's "Invalid password hash…"), for `is_anonymous: true` on an update, or for `passkey_auth_enabled: true`.
 */
export async function userFieldsToColumns(
  body: Partial<ServerUserCreate>,
  mode: 'create' | 'update',
  hashCost: PasswordHashCost,
): Promise<Updateable<UsersTable>> {
  if (body.password !== undefined && body.password !== null && body.password_hash !== undefined) {
    throw new StatusError('bad-request', 'Cannot set both password and password_hash at the same time.');
  }
  if (mode === 'update' && body.is_anonymous === true)
    throw new StatusError('bad-request', 'is_anonymous can only be set to false on an existing user.');
  const changes: Updateable<UsersTable> = {};
  const set = <K extends keyof UsersTable>(key: K, value: Updateable<UsersTable>[K] | undefined) => {
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
  };
  if (body.display_name !== undefined) set('display_name', body.display_name === '' ? null : body.display_name);
  set('profile_image_url', body.profile_image_url);
  if (body.primary_email !== undefined) set('primary_email', body.primary_email === null ? null : normalizeEmail(body.primary_email));
  set('primary_email_verified', body.primary_email_verified);
  set('primary_email_auth_enabled', body.primary_email_auth_enabled);
  if (body.client_metadata !== undefined) set('client_metadata', toJsonText(body.client_metadata));
  if (body.client_read_only_metadata !== undefined) set('client_read_only_metadata', toJsonText(body.client_read_only_metadata));
  if (body.server_metadata !== undefined) set('server_metadata', toJsonText(body.server_metadata));
  set('selected_team_id', body.selected_team_id);
  set('totp_secret_base64', body.totp_secret_base64);
  set('otp_auth_enabled', body.otp_auth_enabled);
  // True iff the user holds a passkey (upstream users/crud.tsx): only registering one sets it;
  // false removes the user's passkeys (updateUserFields).
  if (body.passkey_auth_enabled === true)
    throw new StatusError('bad-request', 'Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method');
  set('passkey_auth_enabled', body.passkey_auth_enabled);
  set('is_anonymous', body.is_anonymous);
  set('restricted_by_admin', body.restricted_by_admin);
  set('restricted_by_admin_reason', body.restricted_by_admin_reason);
  set('restricted_by_admin_private_details', body.restricted_by_admin_private_details);
  // Lifting an admin restriction clears its reason and private details (upstream users/crud.tsx).
  if (body.restricted_by_admin === false) {
    set('restricted_by_admin_reason', null);
    set('restricted_by_admin_private_details', null);
  }
  set('country_code', body.country_code);
  set('locale', body.locale);
  if (body.risk_scores !== undefined) set('risk_scores', JSON.stringify(body.risk_scores));
  if (body.password !== undefined) {
    if (body.password === null) {
      set('password_hash', null);
    } else {
      // Server-side creation takes the app's password as given (upstream applies no minimum on
      // `POST /users`); the maximum still holds. Updates keep the full rule (common
      // passwords and the email refused too).
      if (mode === 'create') assertPasswordNotTooLong(body.password);
      else await assertPasswordAcceptable(body.password);
      set('password_hash', await hashPassword(body.password, hashCost));
    }
  }
  if (body.password_hash !== undefined) {
    // Upstream's error for a hash it cannot verify (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/crud.tsx);
    // the formats are core/auth-password/hash-formats.ts.
    if (!isSupportedPasswordHash(body.password_hash))
      throw new StatusError('bad-request', "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    set('password_hash', body.password_hash);
  }
  return changes;
}

/** Guard used by create and update: an auth-enabled email must be unique in the project. */
export function emailTakenError(email: string): KnownError {
  return new KnownError('USER_EMAIL_ALREADY_EXISTS', { email, would_work_if_email_was_verified: false });
}

import type { Updateable } from 'kysely';
import { KnownError, StatusError } from '../errors/index.ts';
import type { AccessType, OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UsersTable } from '../storage/tables.ts';
import { findTeam } from '../teams/index.ts';
import { isTeamMember } from '../team-membership/index.ts';
import { emailTakenError, userFieldsToColumns } from './apply-fields.ts';
import { findOtherUserByAuthEmail, findUser, listOAuthProviderLinks, updateUser, type UserRow } from './queries.ts';
import type { ServerUserCreate } from './schemas.ts';
import { toServerUser, toUserForAccess } from './wire.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { mapEmailRace } from './create.ts';
import { callerSessionOf, revokeAfterPasswordChange } from '../sessions/index.ts';
import { releaseReplacedImages, storeDataImages } from '../images/index.ts';
import { applyPrimaryEmailChange } from './primary-email.ts';
import { removeAllPasskeys } from '../passkeys/index.ts';
import { deleteSecondFactorState, sealTotpSecret } from '../mfa/index.ts';

/** Errors `updateUserFields` may raise; operations that call it declare these. */
export const USER_UPDATE_ERRORS = [
  'USER_EMAIL_ALREADY_EXISTS',
  'PASSWORD_TOO_SHORT',
  'PASSWORD_TOO_LONG',
  'PASSWORD_REQUIREMENTS_NOT_MET',
  'TEAM_MEMBERSHIP_NOT_FOUND',
] as const;

/**
 * Applies a wire update (client or server fields, already validated) to `user` and answers the
 * user in the caller's view (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/ `PATCH /users/*`). Hashes a new password before
 * opening its transaction. `passkey_auth_enabled: false` removes the user's passkeys (upstream's
 * way to delete them); a changed `totp_secret_base64` voids the user's MFA recovery codes (the secret is stored encrypted). A
 * changed primary email becomes unverified unless `primary_email_verified` is given too or it was
 * already a verified channel of the user (which is then promoted with its id). Setting
 * or removing the password revokes the user's sessions (but the caller's own) and outstanding
 * password-reset codes.
 *
 * @throws KnownError USER_EMAIL_ALREADY_EXISTS `{email}` when another user signs in with the
 *   email; TEAM_MEMBERSHIP_NOT_FOUND `{team_id, user_id}` when `selected_team_id` names a team the
 *   user is not in; PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG; StatusError 400 from
 *   `userFieldsToColumns`.
 */
export async function updateUserFields(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  body: Partial<ServerUserCreate>,
  accessType: AccessType,
) {
  // Hashing (a new password) happens here, before the transaction.
  const columns: Updateable<UsersTable> = await userFieldsToColumns(body, 'update', ctx.runtime.passwordHashCost);
  // TOTP secrets are stored encrypted (core/mfa/secret.ts).
  if (typeof columns.totp_secret_base64 === 'string')
    columns.totp_secret_base64 = sealTotpSecret(ctx.runtime, project.id, user.id, columns.totp_secret_base64);
  return ctx.transaction(async (tx) => {
    // A base64 profile image is stored by Gatehouse and replaced by its URL.
    if (typeof columns.profile_image_url === 'string') {
      columns.profile_image_url = (
        await storeDataImages(tx, project.id, { profile_image_url: columns.profile_image_url }, ['profile_image_url'])
      ).profile_image_url;
    }
    const current = (await findUser(tx.db, project.id, user.id)) ?? user;
    assertPrimaryEmailRules(current.primary_email, columns);
    await releaseReplacedImages(tx, project.id, current, columns, ['profile_image_url']);
    const email = columns.primary_email !== undefined ? columns.primary_email : current.primary_email;
    const authEnabled =
      columns.primary_email_auth_enabled !== undefined ? columns.primary_email_auth_enabled : current.primary_email_auth_enabled;
    const emailOrAuthChanged = columns.primary_email !== undefined || columns.primary_email_auth_enabled !== undefined;
    if (emailOrAuthChanged && email && authEnabled && (await findOtherUserByAuthEmail(tx.db, project.id, email, user.id))) {
      throw emailTakenError(email);
    }
    if (columns.selected_team_id && !(await isTeamMember(tx.db, project.id, columns.selected_team_id, user.id))) {
      throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: columns.selected_team_id, user_id: user.id });
    }
    // A changed primary email: the old one stays as a channel, an existing channel is promoted.
    await applyPrimaryEmailChange(tx, project.id, current, columns);
    await mapEmailRace(tx, email ?? null, () => updateUser(tx.db, project.id, user.id, columns));
    if (body.passkey_auth_enabled === false) await removeAllPasskeys(tx, project.id, user.id);
    // A new or removed TOTP secret voids the recovery codes and spent steps of the old one.
    if (columns.totp_secret_base64 !== undefined && columns.totp_secret_base64 !== current.totp_secret_base64) {
      await deleteSecondFactorState(tx.db, project.id, user.id);
    }
    // A new (or removed) password ends every other session and older reset link.
    if (columns.password_hash !== undefined) await revokeAfterPasswordChange(tx, project.id, user.id, callerSessionOf(ctx, user.id));
    const updated: UserRow = { ...current, ...(columns as Partial<UserRow>) };
    const team = updated.selected_team_id ? await findTeam(tx.db, project.id, updated.selected_team_id) : null;
    const links = await listOAuthProviderLinks(tx.db, project.id, [user.id]);
    await emitWebhookEvent(tx, project.id, 'user.updated', toServerUser(updated, project.config, team, links.get(user.id)));
    return toUserForAccess(accessType, updated, project.config, team, links.get(user.id));
  });
}

/**
 * Upstream's primary-email rules (users `crud.tsx`): without a primary email, email sign-in and
 * "verified" cannot be turned on (400 text); removing the primary email turns both off.
 */
export function assertPrimaryEmailRules(currentEmail: string | null, columns: Updateable<UsersTable>): void {
  const nextEmail = columns.primary_email !== undefined ? columns.primary_email : currentEmail;
  if (nextEmail) return;
  if (columns.primary_email_auth_enabled)
    throw new StatusError('bad-request', 'primary_email_auth_enabled cannot be true without primary_email');
  if (columns.primary_email_verified) throw new StatusError('bad-request', 'primary_email_verified cannot be true without primary_email');
  if (columns.primary_email === null) {
    columns.primary_email_auth_enabled = false;
    columns.primary_email_verified = false;
  }
}

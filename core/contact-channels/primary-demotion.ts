import { KnownError } from '../errors/index.ts';
import { onPrimaryEmailChange } from '../users/index.ts';
import { primaryChannelOf } from './channels.ts';
import { deleteChannelRow, findChannelRowByValue, findOtherAuthChannel, insertChannelRow } from './queries.ts';

let registered = false;

/**
 * When a user's primary email changes or is removed (upstream users `crud.tsx`):
 * - the old address stays as a non-primary channel with its id, verification and sign-in flags
 *   (upstream clears the primary flag rather than deleting the channel);
 * - a non-primary channel of the user holding the new address becomes the primary one, keeping
 *   its id and, unless the update says otherwise, its verified flag; sign-in follows the update
 *   or the old primary email's setting, as upstream;
 * - USER_EMAIL_ALREADY_EXISTS when the new address would sign in and another user signs in with
 *   it through a non-primary channel (upstream's `checkAuthData`).
 */
export function registerPrimaryEmailDemotion(): void {
  if (registered) return;
  registered = true;
  onPrimaryEmailChange(async (ctx, projectId, current, columns) => {
    const next = columns.primary_email;
    const authEnabled = columns.primary_email_auth_enabled ?? current.primary_email_auth_enabled;
    if (next && authEnabled && (await findOtherAuthChannel(ctx.db, projectId, 'email', next, current.id))) {
      throw new KnownError('USER_EMAIL_ALREADY_EXISTS', { email: next, would_work_if_email_was_verified: false });
    }
    if (next) {
      const promoted = await findChannelRowByValue(ctx.db, projectId, current.id, 'email', next);
      if (promoted) {
        await deleteChannelRow(ctx.db, projectId, promoted.id);
        columns.primary_email_channel_id = promoted.id;
        if (columns.primary_email_verified === undefined) columns.primary_email_verified = promoted.is_verified;
      }
    }
    const old = primaryChannelOf(current);
    if (!old || (await findChannelRowByValue(ctx.db, projectId, current.id, 'email', old.value))) return;
    await insertChannelRow(ctx.db, {
      id: old.id,
      project_id: projectId,
      user_id: current.id,
      type: 'email',
      value: old.value,
      is_verified: old.isVerified,
      used_for_auth: old.usedForAuth,
      created_at: ctx.now,
    });
  });
}

import { resolveUserId } from '../auth/user-id.ts';
import { StatusError } from '../errors/index.ts';
import { defineOperation } from '../operations/define.ts';
import { getUser } from '../users/index.ts';
import { syncPasskeyFlag } from './flag.ts';
import { deletePasskeyRow } from './queries.ts';
import { PasskeyParamsSchema } from './schemas.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Removes one passkey; the user's
 * `passkey_auth_enabled` turns false with the last one.
 *
 * Gatehouse extension, shaped like the contact-channel delete. A client removes its
 * own passkeys; server and admin (the dashboard) anyone's. Upstream's way, updating the user with
 * `passkey_auth_enabled: false`, removes them all and works too.
 *
 * 403 text for a client naming another user; 404 text "Passkey not found." for an unknown id.
 */
export const deletePasskey = defineOperation({
  id: 'passkeys.delete',
  method: 'DELETE',
  path: '/passkeys/:user_id/:passkey_id',
  summary: 'Remove a passkey (Gatehouse extension).',
  access: ['client', 'server', 'admin'],
  input: { params: PasskeyParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, params.user_id);
    await ctx.transaction(async (tx) => {
      await getUser(tx.db, project.id, userId);
      if (!(await deletePasskeyRow(tx.db, project.id, userId, params.passkey_id))) throw new StatusError('not-found', 'Passkey not found.');
      await syncPasskeyFlag(tx, project.id, userId);
    });
    return { success: true };
  },
});

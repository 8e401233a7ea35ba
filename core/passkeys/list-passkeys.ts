import { resolveUserId } from '../auth/user-id.ts';
import { defineOperation } from '../operations/define.ts';
import { getUser } from '../users/index.ts';
import { listUserPasskeys } from './queries.ts';
import { ListPasskeysQuerySchema } from './schemas.ts';
import { toWirePasskey, PasskeyOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/**
 * The user's passkeys `{items: [{id, user_id, credential_id, device_type, backed_up,
 * transports, created_at_millis, last_used_at_millis}], is_paginated: false}`, oldest first.
 *
 * Gatehouse extension (upstream keeps one passkey per user and exposes it only as
 * `passkey_auth_enabled`). Named like upstream's per-user lists (`/contact-channels?user_id=`):
 * a client lists its own (`me`), server and admin any user's.
 *
 * 403 text for a client naming another user.
 */
export const listPasskeys = defineOperation({
  id: 'passkeys.list',
  method: 'GET',
  path: '/passkeys',
  summary: "List a user's passkeys (Gatehouse extension).",
  access: ['client', 'server', 'admin'],
  input: { query: ListPasskeysQuerySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_NOT_FOUND'],
  output: listOutput(PasskeyOutput),
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    const userId = resolveUserId(ctx.auth, query.user_id);
    await getUser(ctx.db, project.id, userId);
    const rows = await listUserPasskeys(ctx.db, project.id, userId);
    return { items: rows.map(toWirePasskey), is_paginated: false };
  },
});

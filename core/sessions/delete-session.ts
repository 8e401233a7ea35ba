import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findRefreshToken } from './queries.ts';
import { revokeSession } from './revoke.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Revokes one session. The current session cannot be deleted this way; a client naming another user's session gets 404 text
 * "Session not found." (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/sessions/).
 */
export const deleteSession = defineOperation({
  id: 'sessions.delete',
  method: 'DELETE',
  path: '/auth/sessions/:id',
  summary: 'Revoke a session.',
  access: ['client', 'server', 'admin'],
  input: {
    params: v.strictObject({ id: UuidSchema }),
    query: v.strictObject({ user_id: v.optional(UserIdOrMeSchema) }),
  },
  errors: ['CANNOT_DELETE_CURRENT_SESSION', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: SuccessOutput,
  async run(ctx, { params, query }) {
    const { project, token, accessType } = ctx.auth;
    const session = await findRefreshToken(ctx.db, project.id, params.id);
    const ownerId =
      accessType === 'client'
        ? resolveUserId(ctx.auth, query.user_id ?? 'me')
        : query.user_id
          ? resolveUserId(ctx.auth, query.user_id)
          : null;
    if (!session || (ownerId && session.user_id !== ownerId)) throw new StatusError('not-found', 'Session not found.');
    if (token?.refresh_token_id === session.id) throw new KnownError('CANNOT_DELETE_CURRENT_SESSION');
    await revokeSession(ctx, project.id, session.id);
    return { success: true };
  },
});

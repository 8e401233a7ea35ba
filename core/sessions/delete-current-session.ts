import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { findRefreshTokenByHash } from './queries.ts';
import { revokeSession } from './revoke.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Signs out. Deletes the session named by the access token's
 * `refresh_token_id`, or, without an access token, the one of the caller's refresh token (the
 * official SDK signs out with only the refresh token when the access token has expired).
 */
export const deleteCurrentSession = defineOperation({
  id: 'sessions.deleteCurrent',
  method: 'DELETE',
  path: '/auth/sessions/current',
  summary: 'Sign out: revoke the current session.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 'USER_AUTHENTICATION_REQUIRED'],
  output: SuccessOutput,
  async run(ctx) {
    const { project, token } = ctx.auth;
    if (token) {
      await revokeSession(ctx, project.id, token.refresh_token_id);
      return { success: true };
    }
    if (!ctx.refreshToken) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    const session = await findRefreshTokenByHash(ctx.db, project.id, sha256Hex(ctx.refreshToken));
    if (!session) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    await revokeSession(ctx, project.id, session.id);
    return { success: true };
  },
});

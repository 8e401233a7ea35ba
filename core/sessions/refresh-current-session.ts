import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { refreshSession } from './issue.ts';

/**
 * Issues a new access token for the refresh token in
 * the caller's credentials (`Credentials.refreshToken`). Answers `{access_token}` only: no rotation (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/sessions/).
 */
export const refreshCurrentSession = defineOperation({
  id: 'sessions.refreshCurrent',
  method: 'POST',
  path: '/auth/sessions/current/refresh',
  summary: 'Exchange the refresh token header for a new access token.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  output: v.strictObject({ access_token: v.string() }),
  async run(ctx) {
    if (!ctx.refreshToken) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const { accessToken } = await refreshSession(ctx, ctx.auth.project, ctx.refreshToken);
    return { access_token: accessToken };
  },
});

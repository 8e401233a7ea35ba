import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findUser } from '../users/index.ts';
import { issueSession } from './issue.ts';

const MAX_EXPIRY_MS = 367 * 24 * 60 * 60 * 1000;

/**
 * Creates a session for any user, e.g. for impersonation (server access; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/sessions/). `expires_in_millis` defaults to 365 days and may not exceed 367 days.
 */
export const createSession = defineOperation({
  id: 'sessions.create',
  method: 'POST',
  path: '/auth/sessions',
  summary: 'Create a session (refresh and access token) for a user.',
  access: ['server', 'admin'],
  input: {
    body: v.strictObject({
      user_id: UuidSchema,
      expires_in_millis: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_EXPIRY_MS))),
      is_impersonation: v.optional(v.boolean()),
    }),
  },
  errors: ['USER_ID_DOES_NOT_EXIST'],
  output: v.strictObject({ refresh_token: v.string(), access_token: v.string() }),
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const user = await findUser(ctx.db, project.id, body.user_id);
    if (!user) throw new KnownError('USER_ID_DOES_NOT_EXIST', { user_id: body.user_id });
    const session = await issueSession(ctx, project, user, { expiresInMs: body.expires_in_millis, isImpersonation: body.is_impersonation });
    return { refresh_token: session.refreshToken, access_token: session.accessToken };
  },
});

import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { listUserSessions } from './queries.ts';
import { listOutput, component, MillisOutput } from '../operations/output.ts';

/** A session as listed (`created_at` and `last_used_at` in epoch ms). */
export const SessionOutput = component(
  'Session',
  v.strictObject({
    id: v.string(),
    user_id: v.string(),
    created_at: MillisOutput,
    last_used_at: MillisOutput,
    is_impersonation: v.boolean(),
    is_current_session: v.boolean(),
  }),
);

/**
 * Lists a user's sessions, newest first, marking the caller's own
 * (`is_current_session`). Impersonation sessions are listed only for admins (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/sessions/).
 */
export const listSessions = defineOperation({
  id: 'sessions.list',
  method: 'GET',
  path: '/auth/sessions',
  summary: "List a user's sessions.",
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: UserIdOrMeSchema }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: listOutput(SessionOutput),
  async run(ctx, { query }) {
    const { project, accessType, token } = ctx.auth;
    const userId = resolveUserId(ctx.auth, query.user_id, 'Client can only list sessions for their own user.');
    const rows = await listUserSessions(ctx.db, project.id, userId);
    const items = rows
      .filter((s) => accessType === 'admin' || !s.is_impersonation)
      .map((s) => ({
        id: s.id,
        user_id: s.user_id,
        created_at: Number(s.created_at),
        last_used_at: Number(s.last_used_at),
        is_impersonation: s.is_impersonation,
        is_current_session: token?.refresh_token_id === s.id,
      }));
    return { items, is_paginated: false };
  },
});

import { listOAuthProviderLinks } from './queries.ts';
import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { QueryBooleanSchema, UserIdOrMeSchema } from '../lib/schemas.ts';
import { resolveUserId } from '../auth/user-id.ts';
import { findTeam } from '../teams/index.ts';
import { getUser } from './get-user.ts';
import { toServerUser, ServerUserOutput } from './wire.ts';

/** Path parameters of the `/users/{user_id}` operations; `me` is the signed-in user. */
export const UserIdParams = v.strictObject({ user_id: UserIdOrMeSchema });

/**
 * Reads one user of the project in server view, anonymous and restricted users included
 * (server/admin access; upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/).
 */
export const getUserById = defineOperation({
  id: 'users.get',
  method: 'GET',
  path: '/users/:user_id',
  summary: 'Get a user by id.',
  access: ['server', 'admin'],
  // Upstream's read takes `include_anonymous` / `include_restricted` (the SDK's
  // `getUser(id, { includeAnonymous })` sends them); one user by id is returned either way.
  input: {
    params: UserIdParams,
    query: v.strictObject({ include_anonymous: v.optional(QueryBooleanSchema), include_restricted: v.optional(QueryBooleanSchema) }),
  },
  errors: ['USER_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: ServerUserOutput,
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const user = await getUser(ctx.db, project.id, resolveUserId(ctx.auth, params.user_id));
    const team = user.selected_team_id ? await findTeam(ctx.db, project.id, user.selected_team_id) : null;
    const links = await listOAuthProviderLinks(ctx.db, project.id, [user.id]);
    return toServerUser(user, project.config, team, links.get(user.id));
  },
});

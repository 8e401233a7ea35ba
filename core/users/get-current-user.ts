import { listOAuthProviderLinks } from './queries.ts';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findTeam } from '../teams/index.ts';
import { toUserForAccess, UserOutput } from './wire.ts';

/**
 * Reads the signed-in user, in the caller's view. Without a user it fails with the one code the
 * official SDK maps to "no user" (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts).
 */
export const getCurrentUser = defineOperation({
  id: 'users.getCurrent',
  method: 'GET',
  path: '/users/me',
  summary: 'Get the signed-in user.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: UserOutput,
  async run(ctx) {
    const { user, project, accessType } = ctx.auth;
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    const team = user.selected_team_id ? await findTeam(ctx.db, project.id, user.selected_team_id) : null;
    // Read with the user in request-auth: most users have no linked provider account.
    const links =
      ctx.auth.userHasOAuthLinks === false ? undefined : (await listOAuthProviderLinks(ctx.db, project.id, [user.id])).get(user.id);
    return toUserForAccess(accessType, user, project.config, team, links);
  },
});

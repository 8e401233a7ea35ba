import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { getUser } from '../users/index.ts';
import { grantTeamDefaults } from '../permissions/index.ts';
import { resolveMe } from '../auth/user-id.ts';
import { getTeam } from './lookup.ts';
import { findTeamMember, insertTeamMember } from './queries.ts';
import { MembershipParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Adds a user to a team (server access, empty body). The new member gets
 * `team_member_default_permissions` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/teams/).
 */
export const addTeamMember = defineOperation({
  id: 'teams.addMember',
  method: 'POST',
  path: '/team-memberships/:team_id/:user_id',
  summary: 'Add a user to a team.',
  access: ['server', 'admin'],
  input: { params: MembershipParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'TEAM_NOT_FOUND', 'USER_NOT_FOUND', 'TEAM_MEMBERSHIP_ALREADY_EXISTS'],
  created: true,
  output: v.strictObject({ team_id: v.string(), user_id: v.string() }),
  async run(ctx, { params }) {
    const { project } = ctx.auth;
    const userId = resolveMe(ctx.auth, params.user_id);
    return ctx.transaction(async (tx) => {
      await getTeam(tx.db, project.id, params.team_id);
      await getUser(tx.db, project.id, userId);
      if (await findTeamMember(tx.db, project.id, params.team_id, userId)) throw new KnownError('TEAM_MEMBERSHIP_ALREADY_EXISTS');
      await insertTeamMember(tx.db, project.id, params.team_id, userId, tx.now);
      await grantTeamDefaults(tx.db, project, params.team_id, userId, 'member', tx.now);
      await emitWebhookEvent(tx, project.id, 'team_membership.created', { team_id: params.team_id, user_id: userId });
      return { team_id: params.team_id, user_id: userId };
    });
  },
});

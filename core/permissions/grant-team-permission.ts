import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { isTeamMember } from '../team-membership/index.ts';
import { resolveMe } from '../auth/user-id.ts';
import { checkGrantable } from './lookup.ts';
import { insertTeamGrant } from './queries.ts';
import { TeamGrantParamsSchema } from './schemas.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { TeamPermissionOutput } from './wire.ts';

/**
 * Grants a team permission to a team member (server access). Granting twice is harmless
 * (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/).
 */
export const grantTeamPermission = defineOperation({
  id: 'permissions.grantTeam',
  method: 'POST',
  path: '/team-permissions/:team_id/:user_id/:permission_id',
  summary: 'Grant a team permission to a team member.',
  access: ['server', 'admin'],
  input: { params: TeamGrantParamsSchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'TEAM_MEMBERSHIP_NOT_FOUND', 'PERMISSION_NOT_FOUND', 'WRONG_PERMISSION_SCOPE'],
  created: true,
  output: TeamPermissionOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const userId = resolveMe(ctx.auth, params.user_id);
    return ctx.transaction(async (tx) => {
      if (!(await isTeamMember(tx.db, projectId, params.team_id, userId))) {
        throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: params.team_id, user_id: userId });
      }
      await checkGrantable(tx.db, projectId, 'team', params.permission_id);
      await insertTeamGrant(tx.db, projectId, params.team_id, userId, params.permission_id, tx.now);
      await emitWebhookEvent(tx, projectId, 'team_permission.created', {
        id: params.permission_id,
        user_id: userId,
        team_id: params.team_id,
      });
      return { id: params.permission_id, user_id: userId, team_id: params.team_id };
    });
  },
});

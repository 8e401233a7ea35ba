import { defineOperation } from '../operations/define.ts';
import { requireUser } from '../auth/user-id.ts';
import { getTeam as getTeamRow, getTeamMember } from './lookup.ts';
import { TeamParamsSchema } from './schemas.ts';
import { toTeamForAccess, TeamOutput } from './wire.ts';

/**
 * Reads one team in the caller's view. A client must be a member.
 */
export const getTeam = defineOperation({
  id: 'teams.get',
  method: 'GET',
  path: '/teams/:team_id',
  summary: 'Get a team.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamParamsSchema },
  errors: ['TEAM_NOT_FOUND', 'TEAM_MEMBERSHIP_NOT_FOUND', 'USER_AUTHENTICATION_REQUIRED'],
  output: TeamOutput,
  async run(ctx, { params }) {
    const projectId = ctx.auth.project.id;
    const team = await getTeamRow(ctx.db, projectId, params.team_id);
    if (ctx.auth.accessType === 'client') await getTeamMember(ctx.db, projectId, team.id, requireUser(ctx.auth).id);
    return toTeamForAccess(ctx.auth.accessType, team);
  },
});

import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { findTeam } from '../teams/index.ts';
import { resolveMe } from '../auth/user-id.ts';
import { findUser } from '../users/index.ts';
import { requireInvitationAccess } from './access.ts';
import { listVerificationCodes, type VerificationCode } from '../verification-codes/index.ts';
import { verifiedEmailsOf } from './join.ts';
import { INVITATION_PURPOSE, ListInvitationsQuerySchema, TeamInvitationListOutput, type TeamInvitationData } from './schemas.ts';

/**
 * Pending invitations, newest first, either of a team (`team_id`; a client must be a member with
 * `$read_members` and `$invite_members`) or of a user (`user_id=me` or an id: invitations sent to
 * any of the user's verified email contact channels). Exactly one of the two filters (400 text
 * otherwise). A client naming another user is refused as upstream refuses it
 * (`apps/e2e/.../team-invitations.test.ts` "client cannot list invitations for a user_id other
 * than 'me'").
 */
export const listTeamInvitations = defineOperation({
  id: 'teamInvitations.list',
  method: 'GET',
  path: '/team-invitations',
  summary: 'List pending team invitations of a team or of a user.',
  access: ['client', 'server', 'admin'],
  input: { query: ListInvitationsQuerySchema },
  errors: [
    'TEAM_NOT_FOUND',
    'TEAM_MEMBERSHIP_NOT_FOUND',
    'TEAM_PERMISSION_REQUIRED',
    'USER_AUTHENTICATION_REQUIRED',
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'USER_NOT_FOUND',
  ],
  output: TeamInvitationListOutput,
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    if ((query.team_id === undefined) === (query.user_id === undefined))
      throw new StatusError('bad-request', 'Exactly one of team_id or user_id must be given');
    let codes: VerificationCode<TeamInvitationData>[] = [];
    if (query.team_id !== undefined) {
      await requireInvitationAccess(ctx.db, ctx.auth, query.team_id, ['$read_members', '$invite_members']);
      codes = await listVerificationCodes<TeamInvitationData>(ctx, project.id, INVITATION_PURPOSE, { subjectId: query.team_id });
    } else {
      const userId = resolveMe(ctx.auth, query.user_id!);
      if (ctx.auth.accessType === 'client' && userId !== ctx.auth.user?.id) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      const user = await findUser(ctx.db, project.id, userId);
      if (!user) throw new KnownError('USER_NOT_FOUND');
      for (const email of await verifiedEmailsOf(ctx.db, project.id, user))
        codes.push(...(await listVerificationCodes<TeamInvitationData>(ctx, project.id, INVITATION_PURPOSE, { email })));
    }
    const items = [];
    for (const code of codes) {
      const team = await findTeam(ctx.db, project.id, code.data.team_id);
      if (!team) continue;
      items.push({
        id: code.id,
        team_id: team.id,
        team_display_name: team.display_name,
        expires_at_millis: code.expiresAt,
        recipient_email: code.data.email,
      });
    }
    return { items, is_paginated: false };
  },
});

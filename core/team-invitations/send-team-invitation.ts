import { defineOperation } from '../operations/define.ts';
import { normalizeEmail } from '../lib/email.ts';
import { getTeamOrThrow } from '../teams/index.ts';
import { requireUser } from '../auth/user-id.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import { assertCallbackUrlTrusted, linkWithCode, sendBuiltInEmail } from '../emails/index.ts';
import { INVITATION_PURPOSE, SendInvitationSchema, SentInvitationOutput, type TeamInvitationData } from './schemas.ts';
import { enforceEmailLimits } from '../throttle/index.ts';

/**
 * Creates a 7-day `team_invitation` code and, in the same transaction, queues the email "You have
 * been invited to join <team>" with the link `<callback_url>?code=<code>` (upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/teams/). A client caller needs `$invite_members` in the team;
 * the callback URL must be a trusted domain of the project.
 */
export const sendTeamInvitation = defineOperation({
  id: 'teamInvitations.send',
  method: 'POST',
  path: '/team-invitations/send-code',
  summary: 'Email an invitation to join a team.',
  access: ['client', 'server', 'admin'],
  input: { body: SendInvitationSchema },
  errors: ['TEAM_NOT_FOUND', 'TEAM_PERMISSION_REQUIRED', 'USER_AUTHENTICATION_REQUIRED', 'REDIRECT_URL_NOT_WHITELISTED'],
  output: SentInvitationOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const team = await getTeamOrThrow(ctx.db, project.id, body.team_id);
    if (ctx.auth.accessType === 'client')
      await requireTeamPermission(ctx.db, project.id, team.id, requireUser(ctx.auth).id, '$invite_members');
    assertCallbackUrlTrusted(ctx.runtime, project, body.callback_url);
    const email = normalizeEmail(body.email);
    await enforceEmailLimits(ctx, email);
    return ctx.transaction(async (tx) => {
      const data: TeamInvitationData = { team_id: team.id, email };
      const { code, id } = await createVerificationCode(tx, {
        projectId: project.id,
        purpose: INVITATION_PURPOSE,
        data,
        subjectId: team.id,
        email,
      });
      await sendBuiltInEmail(tx, project, {
        kind: 'team_invitation',
        to: email,
        secrets: [code],
        vars: { teamDisplayName: team.display_name, link: linkWithCode(body.callback_url, code) },
      });
      return { success: true, id };
    });
  },
});

import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import type { Database } from '../storage/tables.ts';
import { listUserChannels } from '../contact-channels/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';
import { findTeam, findTeamMember, insertTeamMember, type TeamRow } from '../teams/index.ts';
import { grantTeamDefaults } from '../permissions/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Adds `userId` to the invited team with `team_member_default_permissions`; accepting while
 * already a member is a no-op. TEAM_NOT_FOUND when the team was deleted since the invitation.
 */
export async function joinInvitedTeam(ctx: OperationContext, project: Project, teamId: string, userId: string): Promise<TeamRow> {
  const team = await findTeam(ctx.db, project.id, teamId);
  if (!team) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
  if (!(await findTeamMember(ctx.db, project.id, teamId, userId))) {
    await insertTeamMember(ctx.db, project.id, teamId, userId, ctx.now);
    await grantTeamDefaults(ctx.db, project, teamId, userId, 'member', ctx.now);
    await emitWebhookEvent(ctx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
  }
  return team;
}

/**
 * The addresses an invitation may be accepted for without its code: the user's verified email
 * contact channels (the primary email included), lowercased. Invitations found this way are
 * listed and accepted by id.
 */
export async function verifiedEmailsOf(db: Kysely<Database>, projectId: string, user: UserRow): Promise<string[]> {
  const channels = await listUserChannels(db, projectId, user);
  return [...new Set(channels.filter((c) => c.type === 'email' && c.isVerified).map((c) => normalizeEmail(c.value)))];
}

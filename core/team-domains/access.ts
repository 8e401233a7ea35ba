import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { getTeamOrThrow } from '../teams/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';

/** The system team permission that lets a team member manage the team's SSO (issue 32). */
export const MANAGE_SSO = '$manage_sso';

/** The errors {@link requireCanManageSso} raises. */
export const MANAGE_SSO_ERRORS = ['TEAM_NOT_FOUND', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'] as const;

/**
 * Whether the caller may manage team `teamId`'s domains and SCIM tokens: server and admin callers
 * may; a client caller must be a signed-in user holding `$manage_sso` in that team
 * (TEAM_PERMISSION_REQUIRED). The team must exist (TEAM_NOT_FOUND), checked first.
 */
export async function requireCanManageSso(ctx: OperationContext<RequestAuth>, teamId: string): Promise<void> {
  const projectId = ctx.auth.project.id;
  await getTeamOrThrow(ctx.db, projectId, teamId);
  if (ctx.auth.accessType !== 'client') return;
  if (!ctx.auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  await requireTeamPermission(ctx.db, projectId, teamId, ctx.auth.user.id, MANAGE_SSO);
}

import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { Database } from '../storage/tables.ts';
import { getTeamMember, getTeamOrThrow } from '../teams/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { restrictedReasonOf, type UserRow } from '../users/index.ts';

/**
 * Who may manage a team's invitations. Server and admin callers need only the team to exist
 * (TEAM_NOT_FOUND). A client must be signed in (CANNOT_GET_OWN_USER_WITHOUT_USER), a member of the
 * team (TEAM_MEMBERSHIP_NOT_FOUND) and hold every permission of `permissionIds`, checked in order
 * through the permission graph (TEAM_PERMISSION_REQUIRED naming the first one missing).
 *
 * @see upstream `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-invitations/crud.tsx` (list: `$read_members`
 *   then `$invite_members`; revoke: `$remove_members`).
 */
export async function requireInvitationAccess(
  db: Kysely<Database>,
  auth: RequestAuth,
  teamId: string,
  permissionIds: readonly string[],
): Promise<void> {
  if (auth.accessType !== 'client') {
    await getTeamOrThrow(db, auth.project.id, teamId);
    return;
  }
  if (!auth.user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  await getTeamMember(db, auth.project.id, teamId, auth.user.id);
  for (const permissionId of permissionIds) await requireTeamPermission(db, auth.project.id, teamId, auth.user.id, permissionId);
}

/**
 * Restricted users (anonymous, restricted by an administrator, or with an unverified email where
 * the project requires verification) may not accept or inspect invitations.
 *
 * @throws KnownError TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED `{restricted_reason}` (403).
 * @see upstream `team-invitations/accept/verification-code-handler.tsx`.
 */
export function refuseRestrictedInvitee(auth: RequestAuth, user: UserRow): void {
  const reason = restrictedReasonOf(user, auth.project.config);
  if (reason) throw new KnownError('TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', { restricted_reason: reason });
}

import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { deleteTeamMember, findTeamMember, insertTeamMember } from '../teams/index.ts';
import { deleteTeamGrant, findDefinition, grantTeamDefaults, insertTeamGrant, isSystemPermission } from '../permissions/index.ts';
import { findUser, updateUser } from '../users/index.ts';
import { revokeUserSessions } from '../sessions/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { listUserGroups, type ScimGroupRow } from './queries.ts';

/**
 * The team permission a SCIM group grants its members: the team permission whose id is the
 * group's `displayName`, else that name lowercased with every character outside `a-z 0-9 _ :`
 * turned into `_` (`"Team Admins"` → `team_admins`); null when the project defines neither (the
 * group then grants nothing until such a permission is defined). docs/sso.md "SCIM" documents it.
 */
export async function groupPermission(
  ctx: OperationContext,
  projectId: string,
  group: Pick<ScimGroupRow, 'display_name'>,
): Promise<string | null> {
  const candidates = [group.display_name, group.display_name.toLowerCase().replace(/[^a-z0-9_:]/g, '_')];
  for (const id of candidates) {
    if (id.startsWith('$') ? isSystemPermission(id) : (await findDefinition(ctx.db, projectId, id))?.scope === 'team') return id;
  }
  return null;
}

/** Grants `permissionId` in the team to a member, with its webhook event. */
async function grant(ctx: OperationContext, projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
  await insertTeamGrant(ctx.db, projectId, teamId, userId, permissionId, ctx.now);
  await emitWebhookEvent(ctx, projectId, 'team_permission.created', { id: permissionId, user_id: userId, team_id: teamId });
}

/**
 * Makes a provisioned, active user a member of the team: the membership with the project's
 * member defaults (`team_member_default_permissions`), and the permissions of its SCIM groups.
 * Nothing happens for an existing member beyond the group permissions.
 */
export async function activateMember(ctx: OperationContext, project: Project, teamId: string, userId: string): Promise<void> {
  if (!(await findTeamMember(ctx.db, project.id, teamId, userId))) {
    await insertTeamMember(ctx.db, project.id, teamId, userId, ctx.now);
    await grantTeamDefaults(ctx.db, project, teamId, userId, 'member', ctx.now);
    await emitWebhookEvent(ctx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
  }
  for (const group of await listUserGroups(ctx.db, teamId, userId)) {
    const permission = await groupPermission(ctx, project.id, group);
    if (permission) await grant(ctx, project.id, teamId, userId, permission);
  }
}

/**
 * Deprovisions a user from the team: the membership goes (its team permissions with it, and the
 * team stops being the user's selected team) and every session of the user is revoked at once
 * (refresh tokens deleted; access tokens refused through the revocation set, core/sessions).
 */
export async function deactivateMember(ctx: OperationContext, project: Project, teamId: string, userId: string): Promise<void> {
  if (await findTeamMember(ctx.db, project.id, teamId, userId)) {
    await deleteTeamMember(ctx.db, project.id, teamId, userId);
    await emitWebhookEvent(ctx, project.id, 'team_membership.deleted', { team_id: teamId, user_id: userId });
    const user = await findUser(ctx.db, project.id, userId);
    if (user?.selected_team_id === teamId) await updateUser(ctx.db, project.id, userId, { selected_team_id: null });
  }
  await revokeUserSessions(ctx, project.id, userId, null);
}

/**
 * After `userId` left `group`: revokes the group's permission unless another of the user's groups
 * in the team grants the same one.
 */
export async function revokeGroupPermission(
  ctx: OperationContext,
  projectId: string,
  teamId: string,
  userId: string,
  group: Pick<ScimGroupRow, 'display_name'>,
): Promise<void> {
  const permission = await groupPermission(ctx, projectId, group);
  if (!permission) return;
  for (const other of await listUserGroups(ctx.db, teamId, userId)) {
    if ((await groupPermission(ctx, projectId, other)) === permission) return;
  }
  if (await deleteTeamGrant(ctx.db, projectId, teamId, userId, permission)) {
    await emitWebhookEvent(ctx, projectId, 'team_permission.deleted', { id: permission, user_id: userId, team_id: teamId });
  }
}

/** Grants the group's permission to a member that is active in the team. */
export async function grantGroupPermission(
  ctx: OperationContext,
  projectId: string,
  teamId: string,
  userId: string,
  group: Pick<ScimGroupRow, 'display_name'>,
): Promise<void> {
  const permission = await groupPermission(ctx, projectId, group);
  if (permission && (await findTeamMember(ctx.db, projectId, teamId, userId))) await grant(ctx, projectId, teamId, userId, permission);
}

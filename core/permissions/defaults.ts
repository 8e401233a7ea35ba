import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import type { OperationContext } from '../operations/define.ts';
import { findProject, updateProject, type Project } from '../projects/index.ts';
import { writeLegacyConfigChange } from '../config/index.ts';
import type { UserRow } from '../users/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { rebuildClosure } from './graph.ts';
import { findDefinition, insertDefinition, insertProjectGrant, insertTeamGrant, setContained, teamPermissionExists } from './queries.ts';
import { isSystemPermission } from './schemas.ts';

/**
 * True when `userId` holds `permissionId` in `teamId` (directly or through contained
 * permissions). One indexed query against the materialized closure.
 */
export function hasTeamPermission(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  return teamPermissionExists(db, projectId, teamId, userId, permissionId);
}

/** Throws TEAM_PERMISSION_REQUIRED `{team_id, user_id, permission_id}` unless the user holds it. */
export async function requireTeamPermission(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<void> {
  if (!(await teamPermissionExists(db, projectId, teamId, userId, permissionId))) {
    throw new KnownError('TEAM_PERMISSION_REQUIRED', { team_id: teamId, user_id: userId, permission_id: permissionId });
  }
}

/**
 * Grants a team's default permissions to a new member: `team_creator_default_permissions` for
 * `creator`, `team_member_default_permissions` for `member` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/permissions.tsx). Ids that are no
 * longer defined in team scope are skipped.
 */
export async function grantTeamDefaults(
  db: Kysely<Database>,
  project: Project,
  teamId: string,
  userId: string,
  role: 'creator' | 'member',
  now: number,
): Promise<void> {
  const ids = role === 'creator' ? project.config.teamCreatorDefaultPermissions : project.config.teamMemberDefaultPermissions;
  await grantTeamPermissionIds(db, project, teamId, userId, ids, now);
}

/**
 * Grants `ids` (team scope) to a member of `teamId`, e.g. an SSO connection's default
 * permissions on a just-in-time join; ids that are not defined in team scope are skipped.
 */
export async function grantTeamPermissionIds(
  db: Kysely<Database>,
  project: Project,
  teamId: string,
  userId: string,
  ids: readonly string[],
  now: number,
): Promise<void> {
  for (const id of ids) {
    if (!isSystemPermission(id) && (await findDefinition(db, project.id, id))?.scope !== 'team') continue;
    await insertTeamGrant(db, project.id, teamId, userId, id, now);
  }
}

/** Grants `user_default_permissions` (project scope) to a new user; undefined ids are skipped. */
export async function grantUserDefaults(db: Kysely<Database>, project: Project, userId: string, now: number): Promise<void> {
  for (const id of project.config.userDefaultPermissions) {
    if ((await findDefinition(db, project.id, id))?.scope !== 'project') continue;
    await insertProjectGrant(db, project.id, userId, id, now);
  }
}

/**
 * The default team definitions of a new project (upstream apps/backend/prisma/seed.ts): `team_admin` with all
 * system permissions (upstream's six and `$manage_sso`) and `team_member` with `$invite_members`, `$read_members`; the internal
 * project gets upstream's seed (`team_member`: `$read_members`; `team_admin`: `$read_members`,
 * `$remove_members`, `$update_team`) plus `$invite_members` for `team_admin`, so dashboard owners
 * can invite co-owners to their team.
 */
export async function seedProjectDefinitions(ctx: OperationContext, project: Project): Promise<void> {
  const internal = project.id === INTERNAL_PROJECT_ID;
  const defs = [
    {
      id: 'team_admin',
      description: 'Default permission for team admins',
      contained: internal
        ? ['$invite_members', '$read_members', '$remove_members', '$update_team']
        : ['$delete_team', '$invite_members', '$manage_api_keys', '$manage_sso', '$read_members', '$remove_members', '$update_team'],
    },
    {
      id: 'team_member',
      description: 'Default permission for team members',
      contained: internal ? ['$read_members'] : ['$invite_members', '$read_members'],
    },
  ];
  for (const def of defs) {
    await insertDefinition(ctx.db, project.id, { id: def.id, scope: 'team', description: def.description }, ctx.now);
    await setContained(ctx.db, project.id, def.id, def.contained);
  }
  await rebuildClosure(ctx.db, project.id);
}

/**
 * Runs inside the transaction that creates a user: grants `user_default_permissions`, and when
 * sign-up created a personal team (the user's selected team), the creator defaults in it.
 */
export async function grantNewUserDefaults(ctx: OperationContext, project: Project, user: UserRow): Promise<void> {
  await grantUserDefaults(ctx.db, project, user.id, ctx.now);
  if (user.selected_team_id) await grantTeamDefaults(ctx.db, project, user.selected_team_id, user.id, 'creator', ctx.now);
}

/**
 * Keeps the project's default-permission lists (`team_creator_default_permissions`,
 * `team_member_default_permissions`, `user_default_permissions`) in step with a renamed
 * (`to` = new id) or deleted (`to` = null) definition, so renaming `team_admin` keeps creators
 * admins. Runs in the definition change's transaction.
 */
export async function renameInDefaults(db: Kysely<Database>, projectId: string, from: string, to: string | null): Promise<void> {
  const project = await findProject(db, projectId);
  if (!project) return;
  const map = (ids: string[]) => [...new Set(ids.flatMap((id) => (id === from ? (to === null ? [] : [to]) : [id])))];
  const { teamCreatorDefaultPermissions: creator, teamMemberDefaultPermissions: member, userDefaultPermissions: user } = project.config;
  if (![...creator, ...member, ...user].includes(from)) return;
  const next = {
    ...project.config,
    teamCreatorDefaultPermissions: map(creator),
    teamMemberDefaultPermissions: map(member),
    userDefaultPermissions: map(user),
  };
  // Through the configuration model, which also refreshes the project's config view.
  const config = await writeLegacyConfigChange(db, { projectId, branchId: 'main', prev: project.config, next, now: Date.now() });
  await updateProject(db, { ...project, config });
}

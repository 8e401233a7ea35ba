export { listTeamPermissionDefinitions } from './list-team-permission-definitions.ts';
export { listProjectPermissionDefinitions } from './list-project-permission-definitions.ts';
export { createTeamPermissionDefinition } from './create-team-permission-definition.ts';
export { createProjectPermissionDefinition } from './create-project-permission-definition.ts';
export { updateTeamPermissionDefinition } from './update-team-permission-definition.ts';
export { updateProjectPermissionDefinition } from './update-project-permission-definition.ts';
export { deleteTeamPermissionDefinition } from './delete-team-permission-definition.ts';
export { deleteProjectPermissionDefinition } from './delete-project-permission-definition.ts';
export { grantTeamPermission } from './grant-team-permission.ts';
export { revokeTeamPermission } from './revoke-team-permission.ts';
export { listTeamPermissions } from './list-team-permissions.ts';
export { grantProjectPermission } from './grant-project-permission.ts';
export { revokeProjectPermission } from './revoke-project-permission.ts';
export { listProjectPermissions } from './list-project-permissions.ts';
export {
  hasTeamPermission,
  requireTeamPermission,
  grantTeamDefaults,
  grantTeamPermissionIds,
  grantNewUserDefaults,
  seedProjectDefinitions,
} from './defaults.ts';

export { teamPermissionExists, listTeamGrants, listProjectGrants, insertTeamGrant, deleteTeamGrant, findDefinition } from './queries.ts';
export { isSystemPermission } from './schemas.ts';

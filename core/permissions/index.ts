export { listTeamPermissionDefinitions, listProjectPermissionDefinitions } from './list-permission-definitions.ts';
export { createTeamPermissionDefinition, createProjectPermissionDefinition } from './create-permission-definition.ts';
export { updateTeamPermissionDefinition, updateProjectPermissionDefinition } from './update-permission-definition.ts';
export { deleteTeamPermissionDefinition, deleteProjectPermissionDefinition } from './delete-permission-definition.ts';
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

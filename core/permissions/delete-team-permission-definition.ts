import { deletePermissionDefinitionFor } from './delete-permission-definition.ts';

/**
 * `DELETE /team-permission-definitions/{permission_id}` (admin) → `{success: true}`. Removes the
 * definition, every grant of it, its place in other definitions and in the project's default lists. PERMISSION_NOT_FOUND otherwise.
 */
export const deleteTeamPermissionDefinition = deletePermissionDefinitionFor('team');

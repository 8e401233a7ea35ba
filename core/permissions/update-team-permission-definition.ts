import { updatePermissionDefinitionFor } from './update-permission-definition.ts';

/**
 * `PATCH /team-permission-definitions/{permission_id}` (admin) `{id?, description?, contained_permission_ids?}`
 * → the definition. Renaming moves every grant, containment and default-permission entry to the new id. Errors:
 * PERMISSION_NOT_FOUND, PERMISSION_ID_ALREADY_EXISTS, CONTAINED_PERMISSION_NOT_FOUND; a cycle → 400 text.
 */
export const updateTeamPermissionDefinition = updatePermissionDefinitionFor('team');

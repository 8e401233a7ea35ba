import { createPermissionDefinitionFor } from './create-permission-definition.ts';

/**
 * `POST /team-permission-definitions` (admin) `{id, description?, contained_permission_ids?}` → 201 definition.
 * Errors: PERMISSION_ID_ALREADY_EXISTS (ids are unique across scopes and the system ids),
 * CONTAINED_PERMISSION_NOT_FOUND; a cycle → 400 text (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/, upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts).
 */
export const createTeamPermissionDefinition = createPermissionDefinitionFor('team');

import { updatePermissionDefinitionFor } from './update-permission-definition.ts';

/** `PATCH /project-permission-definitions/{permission_id}` (admin): as the team variant. */
export const updateProjectPermissionDefinition = updatePermissionDefinitionFor('project');

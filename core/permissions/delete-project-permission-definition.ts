import { deletePermissionDefinitionFor } from './delete-permission-definition.ts';

/** `DELETE /project-permission-definitions/{permission_id}` (admin): as the team variant. */
export const deleteProjectPermissionDefinition = deletePermissionDefinitionFor('project');

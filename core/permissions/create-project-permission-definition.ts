import { createPermissionDefinitionFor } from './create-permission-definition.ts';

/** `POST /project-permission-definitions` (admin): as the team variant, contained ids from project scope only. */
export const createProjectPermissionDefinition = createPermissionDefinitionFor('project');

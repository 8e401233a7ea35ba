import { listPermissionDefinitionsFor } from './list-permission-definitions.ts';

/** `GET /project-permission-definitions` (admin): the project-scope definitions, sorted by id. */
export const listProjectPermissionDefinitions = listPermissionDefinitionsFor('project');

import { listPermissionDefinitionsFor } from './list-permission-definitions.ts';

/**
 * `GET /team-permission-definitions` (admin) → `{items: [{id, description?, contained_permission_ids}], is_paginated: false}`,
 * custom definitions plus the six `$` system permissions, sorted by id (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/team-permissions/). The
 * admin SDK's paginated form adds `limit`, `cursor` (id of the page's first definition) and
 * `query` (text in id or description) and gets `pagination: {next_cursor}`.
 */
export const listTeamPermissionDefinitions = listPermissionDefinitionsFor('team');

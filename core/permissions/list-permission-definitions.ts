import { defineOperation } from '../operations/define.ts';
import { listDefinitions } from './queries.ts';
import type { PermissionScope } from './schemas.ts';
import { systemDefinitionsJson, toDefinitionJson } from './wire.ts';

function listFor(scope: PermissionScope) {
  return defineOperation({
    id: `permissions.list${scope === 'team' ? 'Team' : 'Project'}Definitions`,
    method: 'GET',
    path: `/${scope}-permission-definitions`,
    summary: `List the ${scope} permission definitions.`,
    access: ['admin'],
    input: {},
    errors: [],
    async run(ctx) {
      const custom = (await listDefinitions(ctx.db, ctx.auth.project.id, scope)).map(toDefinitionJson);
      const items = scope === 'team' ? [...custom, ...systemDefinitionsJson()] : custom;
      items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return { items, is_paginated: false };
    },
  });
}

/**
 * `GET /team-permission-definitions` (admin) → `{items: [{id, description?, contained_permission_ids}], is_paginated: false}`,
 * custom definitions plus the six `$` system permissions, sorted by id (wire-protocol §3.9).
 */
export const listTeamPermissionDefinitions = listFor('team');

/** `GET /project-permission-definitions` (admin): the project-scope definitions, sorted by id. */
export const listProjectPermissionDefinitions = listFor('project');

import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { pageLimitSchema } from '../lib/schemas.ts';
import { listDefinitions } from './queries.ts';
import type { PermissionScope } from './schemas.ts';
import { systemDefinitionsJson, toDefinitionJson, PermissionDefinitionOutput } from './wire.ts';
import { pagedListOutput } from '../operations/output.ts';

/** Largest page of permission definitions (upstream's cap). */
const PERMISSION_DEFINITIONS_LIMIT_MAX = 200;

const QuerySchema = v.strictObject({
  // Upstream caps this listing at 200 (`permission-definitions-pagination`).
  limit: v.optional(pageLimitSchema(PERMISSION_DEFINITIONS_LIMIT_MAX)),
  cursor: v.optional(v.string()),
  query: v.optional(v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'))),
});

/** The list operation of one permission scope (`team` or `project`): its definitions sorted by id, filtered by an optional query., shared by both scopes' operations. */
export function listPermissionDefinitionsFor(scope: PermissionScope) {
  return defineOperation({
    id: `permissions.list${scope === 'team' ? 'Team' : 'Project'}Definitions`,
    method: 'GET',
    path: `/${scope}-permission-definitions`,
    summary: `List the ${scope} permission definitions.`,
    access: ['admin'],
    input: { query: QuerySchema },
    errors: [],
    output: pagedListOutput(PermissionDefinitionOutput),
    async run(ctx, { query }) {
      const custom = (await listDefinitions(ctx.db, ctx.auth.project.id, scope)).map(toDefinitionJson);
      let items: Array<{ id: string; description?: string; contained_permission_ids: string[] }> =
        scope === 'team' ? [...custom, ...systemDefinitionsJson()] : custom;
      items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (query.query) {
        const needle = query.query.toLowerCase();
        items = items.filter((d) => d.id.includes(needle) || (d.description ?? '').toLowerCase().includes(needle));
      }
      if (query.limit === undefined && query.cursor === undefined) return { items, is_paginated: false };
      // The admin SDK's paginated listing: `cursor` is the id of the page's first definition.
      const start = query.cursor === undefined ? 0 : items.findIndex((d) => d.id === query.cursor);
      if (start < 0) return { items: [], is_paginated: true, pagination: { next_cursor: null } };
      const end = query.limit === undefined ? items.length : start + query.limit;
      return {
        items: items.slice(start, end),
        is_paginated: true,
        pagination: { next_cursor: end < items.length ? items[end]!.id : null },
      };
    },
  });
}

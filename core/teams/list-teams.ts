import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { LIST_LIMIT_MAX, pageLimitSchema, QueryBooleanSchema, UserIdOrMeSchema, UuidSchema } from '../lib/schemas.ts';
import { requireSelfForClient, resolveMe } from '../auth/user-id.ts';
import { paginate } from './paginate.ts';
import { listTeams as listTeamRows } from './queries.ts';
import { toTeamForAccess, TeamOutput } from './wire.ts';
import { pagedListOutput } from '../operations/output.ts';

const QuerySchema = v.strictObject({
  user_id: v.optional(UserIdOrMeSchema),
  order_by: v.optional(v.picklist(['created_at'])),
  desc: v.optional(QueryBooleanSchema),
  cursor: v.optional(UuidSchema),
  limit: v.optional(pageLimitSchema(LIST_LIMIT_MAX)),
  query: v.optional(v.pipe(v.string(), v.maxLength(256, 'must be at most 256 characters'))),
});

/**
 * Lists teams, oldest first, by default unpaginated. A client must pass
 * `user_id=me` (or its own id; else 403 text); server and admin may omit it to list every team
 * of the project, which the SDK's server `getTeam(id)` relies on (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts).
 *
 * The 2.8.108 server SDK may add `order_by=created_at`, `desc`, `query` (id, or text in the display
 * name, case-insensitive), `cursor` (id of the page's first team) and `limit`; with `cursor` or
 * `limit` the answer is `{items, is_paginated: true, pagination: {next_cursor}}`.
 */
export const listTeams = defineOperation({
  id: 'teams.list',
  method: 'GET',
  path: '/teams',
  summary: 'List teams, or the teams of a user.',
  access: ['client', 'server', 'admin'],
  input: { query: QuerySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  output: pagedListOutput(TeamOutput),
  async run(ctx, { query }) {
    const userId = query.user_id === undefined ? undefined : resolveMe(ctx.auth, query.user_id);
    requireSelfForClient(ctx.auth, userId, 'list teams');
    let teams = await listTeamRows(ctx.db, ctx.auth.project.id, userId);
    if (query.query) {
      const needle = query.query.toLowerCase();
      teams = teams.filter((t) => t.id === query.query || t.display_name.toLowerCase().includes(needle));
    }
    if (query.desc) teams = [...teams].reverse();
    const items = (t: typeof teams) => t.map((team) => toTeamForAccess(ctx.auth.accessType, team));
    if (query.cursor === undefined && query.limit === undefined) return { items: items(teams), is_paginated: false };
    const { page, nextCursor } = paginate(teams, query);
    return { items: items(page), is_paginated: true, pagination: { next_cursor: nextCursor } };
  },
});

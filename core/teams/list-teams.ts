import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { UserIdOrMeSchema } from '../lib/schemas.ts';
import { requireSelfForClient, resolveUserId } from './access.ts';
import { listTeams as listTeamRows } from './queries.ts';
import { toTeamForAccess } from './wire.ts';

/**
 * `GET /teams?user_id=` → `{items, is_paginated: false}`, oldest first. A client must pass
 * `user_id=me` (or its own id; else 403 text); server and admin may omit it to list every team
 * of the project, which the SDK's server `getTeam(id)` relies on (sdk-compatibility §1.16).
 */
export const listTeams = defineOperation({
  id: 'teams.list',
  method: 'GET',
  path: '/teams',
  summary: 'List teams, or the teams of a user.',
  access: ['client', 'server', 'admin'],
  input: { query: v.strictObject({ user_id: v.optional(UserIdOrMeSchema) }) },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER'],
  async run(ctx, { query }) {
    const userId = query.user_id === undefined ? undefined : resolveUserId(ctx.auth, query.user_id);
    requireSelfForClient(ctx.auth, userId, 'list teams');
    const teams = await listTeamRows(ctx.db, ctx.auth.project.id, userId);
    return { items: teams.map((t) => toTeamForAccess(ctx.auth.accessType, t)), is_paginated: false };
  },
});

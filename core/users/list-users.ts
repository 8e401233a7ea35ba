import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { LIST_LIMIT_MAX, pageLimitSchema, QueryBooleanSchema, UuidSchema } from '../lib/schemas.ts';
import { findTeam, type TeamRow } from '../teams/index.ts';
import { findUser, listOAuthProviderLinks, listUsersPage, sortValue } from './queries.ts';
import { toServerUser, ServerUserOutput } from './wire.ts';
import { pagedListOutput } from '../operations/output.ts';

/**
 * Lists the project's users in server view (server/admin access), ordered by `order_by`
 * (`signed_up_at`, upstream's only key and the default, or `last_active_at`, which falls back to
 * the sign-up time for a user never active), ascending unless `desc=true`, then by id; paginated
 * by keyset (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/; indexes of migration 0017).
 * `cursor` is the id of the first user
 * of the wanted page; `next_cursor` is null without `limit` or on the last page. Anonymous users
 * are left out unless `include_anonymous=true` (which also includes restricted users), restricted
 * ones unless `include_restricted=true`; `only_anonymous=true` needs `include_anonymous=true`
 * (else 400 text). `query` matches id, display name or email (case-insensitive substring);
 * `team_id` keeps members of one team. An unknown `cursor` answers 400 text. `limit` is at most
 * LIST_LIMIT_MAX (10,000; upstream sets none): beyond, SCHEMA_ERROR.
 */
export const listUsers = defineOperation({
  id: 'users.list',
  method: 'GET',
  path: '/users',
  summary: 'List users, paginated.',
  access: ['server', 'admin'],
  input: {
    query: v.strictObject({
      limit: v.optional(pageLimitSchema(LIST_LIMIT_MAX)),
      cursor: v.optional(UuidSchema),
      order_by: v.optional(v.picklist(['signed_up_at', 'last_active_at'])),
      desc: v.optional(QueryBooleanSchema),
      query: v.optional(v.string()),
      team_id: v.optional(UuidSchema),
      include_anonymous: v.optional(QueryBooleanSchema),
      include_restricted: v.optional(QueryBooleanSchema),
      only_anonymous: v.optional(QueryBooleanSchema),
    }),
  },
  errors: [],
  output: pagedListOutput(ServerUserOutput),
  async run(ctx, { query }) {
    const { project } = ctx.auth;
    if (query.only_anonymous && !query.include_anonymous)
      throw new StatusError('bad-request', 'only_anonymous=true requires include_anonymous=true');
    const orderBy = query.order_by ?? 'signed_up_at';
    let cursor: { id: string; value: number } | undefined;
    if (query.cursor) {
      const at = await findUser(ctx.db, project.id, query.cursor);
      if (!at) throw new StatusError('bad-request', 'cursor does not name a user of this project');
      cursor = { id: at.id, value: sortValue(at, orderBy) };
    }
    const includeAnonymous = query.include_anonymous ?? false;
    const rows = await listUsersPage(ctx.db, project.id, {
      limit: query.limit,
      cursor,
      orderBy,
      desc: query.desc ?? false,
      dialect: ctx.runtime.storage.dialect,
      query: query.query || undefined,
      teamId: query.team_id,
      anonymous: query.only_anonymous ? 'only' : includeAnonymous ? 'include' : 'exclude',
      includeRestricted: includeAnonymous || (query.include_restricted ?? false),
      requireEmailVerification: project.config.requireEmailVerification,
    });
    const hasMore = query.limit !== undefined && rows.length > query.limit;
    const page = hasMore ? rows.slice(0, query.limit) : rows;
    const teams = new Map<string, TeamRow | null>();
    for (const id of new Set(page.map((u) => u.selected_team_id).filter((t): t is string => t !== null))) {
      teams.set(id, await findTeam(ctx.db, project.id, id));
    }
    const links = await listOAuthProviderLinks(
      ctx.db,
      project.id,
      page.map((u) => u.id),
    );
    return {
      items: page.map((u) =>
        toServerUser(u, project.config, u.selected_team_id ? (teams.get(u.selected_team_id) ?? null) : null, links.get(u.id)),
      ),
      is_paginated: true,
      pagination: { next_cursor: hasMore ? rows[query.limit!]!.id : null },
    };
  },
});

import type * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { resolveMe } from '../auth/user-id.ts';
import { requireCanManage, requireKeysEnabled } from './access.ts';
import { listApiKeys as listRows } from './queries.ts';
import { TeamKeyQuerySchema, UserKeyQuerySchema } from './schemas.ts';
import type { ApiKeyType } from './secret.ts';
import { toApiKeyJson, ApiKeyOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/** The list operation for one key owner type (`user` or `team`), shared by both owners' operations. */
export function listApiKeysFor(type: ApiKeyType) {
  return defineOperation({
    id: `apiKeys.list${type === 'user' ? 'User' : 'Team'}Keys`,
    method: 'GET',
    path: `/${type}-api-keys`,
    summary: `List ${type} API keys (values shown as their last four characters).`,
    access: ['client', 'server', 'admin'],
    input: { query: type === 'user' ? UserKeyQuerySchema : TeamKeyQuerySchema },
    errors: ['SCHEMA_ERROR', 'CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'API_KEY_NOT_FOUND'],
    output: listOutput(ApiKeyOutput),
    async run(ctx, { query }) {
      requireKeysEnabled(ctx.auth, type);
      const q = query as Partial<v.InferOutput<typeof UserKeyQuerySchema> & v.InferOutput<typeof TeamKeyQuerySchema>>;
      const userId = type === 'user' && q.user_id !== undefined ? resolveMe(ctx.auth, q.user_id) : undefined;
      const teamId = type === 'team' ? q.team_id : undefined;
      // Upstream requires the owner filter for every access type (SCHEMA_ERROR with its own text).
      if (!userId && !teamId)
        throw new KnownError('SCHEMA_ERROR', { message: `${type === 'user' ? 'user_id' : 'team_id'} is required for ${type} API keys` });
      await requireCanManage(ctx.db, ctx.auth, { userId, teamId });
      const rows = await listRows(ctx.db, ctx.auth.project.id, type, { userId, teamId });
      return { items: rows.map((r) => toApiKeyJson(r)), is_paginated: false };
    },
  });
}

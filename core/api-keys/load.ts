import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { resolveMe } from '../auth/user-id.ts';
import { requireCanManage, requireKeysEnabled } from './access.ts';
import { findApiKey, type ApiKeyRow } from './queries.ts';
import type { ApiKeyType } from './secret.ts';

/**
 * The key `id` of `type` that the caller may manage: checks the feature flag, existence
 * (API_KEY_NOT_FOUND, also when the optional `user_id` / `team_id` query names another owner) and
 * the client rules of `requireCanManage`.
 */
export async function loadManagedKey(
  ctx: OperationContext<RequestAuth>,
  type: ApiKeyType,
  id: string,
  query: { user_id?: string; team_id?: string },
): Promise<ApiKeyRow> {
  requireKeysEnabled(ctx.auth, type);
  const row = await findApiKey(ctx.db, ctx.auth.project.id, type, id);
  if (!row) throw new KnownError('API_KEY_NOT_FOUND');
  if (query.user_id !== undefined && resolveMe(ctx.auth, query.user_id) !== row.user_id) throw new KnownError('API_KEY_NOT_FOUND');
  if (query.team_id !== undefined && query.team_id !== row.team_id) throw new KnownError('API_KEY_NOT_FOUND');
  await requireCanManage(ctx.db, ctx.auth, { userId: row.user_id, teamId: row.team_id });
  return row;
}

import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { KeyParamsSchema, KeyUpdateSchema, TeamKeyQuerySchema, UserKeyQuerySchema } from './schemas.ts';
import { loadManagedKey } from './load.ts';
import { findApiKey, updateApiKey } from './queries.ts';
import type { ApiKeyType } from './secret.ts';
import { toApiKeyJson, ApiKeyOutput } from './wire.ts';

/** The update operation for one key owner type (`user` or `team`), shared by both owners' operations. */
export function updateApiKeyFor(type: ApiKeyType) {
  return defineOperation({
    id: `apiKeys.update${type === 'user' ? 'User' : 'Team'}Key`,
    method: 'PATCH',
    path: `/${type}-api-keys/:api_key_id`,
    summary: `Update the description of a ${type} API key, or revoke it.`,
    access: ['client', 'server', 'admin'],
    input: { params: KeyParamsSchema, query: type === 'user' ? UserKeyQuerySchema : TeamKeyQuerySchema, body: KeyUpdateSchema },
    errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'API_KEY_NOT_FOUND', 'PUBLIC_API_KEY_CANNOT_BE_REVOKED'],
    output: ApiKeyOutput,
    async run(ctx, { params, query, body }) {
      const projectId = ctx.auth.project.id;
      return ctx.transaction(async (tx) => {
        const row = await loadManagedKey(tx, type, params.api_key_id, query);
        const changes: { description?: string; manually_revoked_at?: number } = {};
        if (body.description !== undefined) changes.description = body.description;
        if (body.revoked && row.manually_revoked_at === null) {
          // upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ API key: "A public key cannot be revoked."
          if (row.is_public) throw new KnownError('PUBLIC_API_KEY_CANNOT_BE_REVOKED');
          changes.manually_revoked_at = tx.now;
        }
        await updateApiKey(tx.db, projectId, row.id, changes);
        return toApiKeyJson((await findApiKey(tx.db, projectId, type, row.id))!);
      });
    },
  });
}

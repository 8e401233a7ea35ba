import { defineOperation } from '../operations/define.ts';
import { TeamKeyQuerySchema, UserKeyQuerySchema, KeyParamsSchema } from './schemas.ts';
import { loadManagedKey } from './load.ts';
import type { ApiKeyType } from './secret.ts';
import { toApiKeyJson, ApiKeyOutput } from './wire.ts';

/** The read operation for one key owner type (`user` or `team`), shared by both owners' operations. */
export function getApiKeyFor(type: ApiKeyType) {
  return defineOperation({
    id: `apiKeys.get${type === 'user' ? 'User' : 'Team'}Key`,
    method: 'GET',
    path: `/${type}-api-keys/:api_key_id`,
    summary: `Get a ${type} API key.`,
    access: ['client', 'server', 'admin'],
    input: { params: KeyParamsSchema, query: type === 'user' ? UserKeyQuerySchema : TeamKeyQuerySchema },
    errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'API_KEY_NOT_FOUND'],
    output: ApiKeyOutput,
    async run(ctx, { params, query }) {
      return toApiKeyJson(await loadManagedKey(ctx, type, params.api_key_id, query));
    },
  });
}

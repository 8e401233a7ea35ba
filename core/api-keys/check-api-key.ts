import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { requireKeysEnabled } from './access.ts';
import { findApiKeyByHash } from './queries.ts';
import { KeyCheckSchema } from './schemas.ts';
import type { ApiKeyType } from './secret.ts';
import { toApiKeyJson, ApiKeyOutput } from './wire.ts';

/** The check operation for one key owner type (`user` or `team`), shared by both owners' operations. */
export function checkApiKeyFor(type: ApiKeyType) {
  return defineOperation({
    id: `apiKeys.check${type === 'user' ? 'User' : 'Team'}Key`,
    method: 'POST',
    path: `/${type}-api-keys/check`,
    summary: `Check a ${type} API key secret and return the key.`,
    access: ['server', 'admin'],
    input: { body: KeyCheckSchema },
    errors: ['API_KEY_NOT_FOUND', 'WRONG_API_KEY_TYPE', 'API_KEY_REVOKED', 'API_KEY_EXPIRED'],
    output: ApiKeyOutput,
    async run(ctx, { body }) {
      requireKeysEnabled(ctx.auth, type);
      // Every secret, well-formed or not, costs one SHA-256 and one unique-index lookup, so the
      // answer time does not tell whether a key exists (no early exit on format or checksum).
      const row = await findApiKeyByHash(ctx.db, ctx.auth.project.id, sha256Hex(body.api_key));
      if (!row) throw new KnownError('API_KEY_NOT_FOUND');
      if (row.type !== type) throw new KnownError('WRONG_API_KEY_TYPE', { expected_type: type, actual_type: row.type });
      if (row.manually_revoked_at !== null) throw new KnownError('API_KEY_REVOKED');
      if (row.expires_at !== null && Number(row.expires_at) <= ctx.now) throw new KnownError('API_KEY_EXPIRED');
      return toApiKeyJson(row);
    },
  });
}

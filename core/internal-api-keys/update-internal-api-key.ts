import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findInternalApiKey, revokeInternalApiKey, updateInternalApiKeyDescription } from './queries.ts';
import { toInternalApiKey, InternalApiKeyOutput } from './wire.ts';

/** Changes a key set's description or revokes it (`revoked: true`, final) (admin access). */
export const updateInternalApiKey = defineOperation({
  id: 'internalApiKeys.update',
  method: 'PATCH',
  path: '/internal/api-keys/:api_key_id',
  summary: 'Update or revoke a project API key set.',
  access: ['admin'],
  input: {
    params: v.strictObject({ api_key_id: UuidSchema }),
    body: v.strictObject({ description: v.optional(v.pipe(v.string(), v.maxLength(1000))), revoked: v.optional(v.literal(true)) }),
  },
  errors: ['API_KEY_NOT_FOUND'],
  output: InternalApiKeyOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    return ctx.transaction(async (tx) => {
      if (!(await findInternalApiKey(tx.db, projectId, params.api_key_id))) throw new KnownError('API_KEY_NOT_FOUND');
      if (body.description !== undefined) await updateInternalApiKeyDescription(tx.db, projectId, params.api_key_id, body.description);
      if (body.revoked) await revokeInternalApiKey(tx.db, projectId, params.api_key_id, ctx.now);
      return toInternalApiKey((await findInternalApiKey(tx.db, projectId, params.api_key_id))!);
    });
  },
});

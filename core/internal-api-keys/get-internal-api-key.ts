import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findInternalApiKey } from './queries.ts';
import { toInternalApiKey, InternalApiKeyOutput } from './wire.ts';

/** Reads one key set of the project (admin access). */
export const getInternalApiKey = defineOperation({
  id: 'internalApiKeys.get',
  method: 'GET',
  path: '/internal/api-keys/:api_key_id',
  summary: 'Get one project API key set.',
  access: ['admin'],
  input: { params: v.strictObject({ api_key_id: UuidSchema }) },
  errors: ['API_KEY_NOT_FOUND'],
  output: InternalApiKeyOutput,
  async run(ctx, { params }) {
    const row = await findInternalApiKey(ctx.db, ctx.auth.project.id, params.api_key_id);
    if (!row) throw new KnownError('API_KEY_NOT_FOUND');
    return toInternalApiKey(row);
  },
});

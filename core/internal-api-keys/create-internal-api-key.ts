import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { generateKeyValues, storeKeySet } from './generate.ts';
import { CreatedInternalApiKeyOutput } from './wire.ts';

/**
 * Creates a project key set (admin access). The full values are in this
 * response only; afterwards each shows as `{last_four}` (upstream apps/backend/prisma/seed.ts "Internal API keys").
 */
export const createInternalApiKey = defineOperation({
  id: 'internalApiKeys.create',
  method: 'POST',
  path: '/internal/api-keys',
  summary: 'Create project API keys (publishable, secret server, super secret admin).',
  access: ['admin'],
  input: {
    body: v.strictObject({
      description: v.pipe(v.string(), v.maxLength(1000)),
      expires_at_millis: v.nullable(v.pipe(v.number(), v.integer())),
      has_publishable_client_key: v.boolean(),
      has_secret_server_key: v.boolean(),
      has_super_secret_admin_key: v.boolean(),
    }),
  },
  errors: [],
  output: CreatedInternalApiKeyOutput,
  async run(ctx, { body }) {
    if (!body.has_publishable_client_key && !body.has_secret_server_key && !body.has_super_secret_admin_key) {
      throw new StatusError('bad-request', 'At least one key type must be requested.');
    }
    // A past expires_at_millis is accepted, as upstream does: the key set is simply already expired.
    const values = generateKeyValues({
      publishable: body.has_publishable_client_key,
      secret: body.has_secret_server_key,
      admin: body.has_super_secret_admin_key,
    });
    const row = await storeKeySet(ctx.db, ctx.auth.project.id, values, {
      description: body.description,
      now: ctx.now,
      expiresAt: body.expires_at_millis,
    });
    return {
      id: row.id,
      description: row.description,
      created_at_millis: ctx.now,
      expires_at_millis: body.expires_at_millis,
      ...values,
    };
  },
});

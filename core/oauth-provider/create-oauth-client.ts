import { randomBytes } from 'node:crypto';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { checkClientFields } from './client-checks.ts';
import { sealedClientRow } from './client-record.ts';
import { MAX_CLIENTS, metadataFor, projectScopes, SECRET_METHODS } from './client-fields.ts';
import { listClientRows, upsertClientRow } from './queries.ts';
import { CreatedOAuthClientOutput, CreateOAuthClientSchema, toOAuthClientJson } from './wire.ts';

/**
 * `POST /internal/oauth-clients` (admin): registers an OAuth client of the project's identity
 * provider (docs/oauth-provider.md). The secret of a `client_secret_basic`/`_post` client (43
 * characters, 256 bits) is in this answer only; it is stored sealed. Bad combinations answer
 * 400 (client-checks.ts).
 */
export const createOauthClient = defineOperation({
  id: 'oauthClients.create',
  method: 'POST',
  path: '/internal/oauth-clients',
  summary: 'Register an OAuth client of the project’s identity provider.',
  access: ['admin'],
  input: { body: CreateOAuthClientSchema },
  errors: [],
  created: true,
  output: CreatedOAuthClientOutput,
  async run(ctx, { body }) {
    checkClientFields(body, projectScopes(ctx));
    const projectId = ctx.auth.project.id;
    if ((await listClientRows(ctx.db, projectId, MAX_CLIENTS)).length >= MAX_CLIENTS)
      throw new StatusError('bad-request', `A project has at most ${MAX_CLIENTS} OAuth clients.`);
    const clientId = `gh_${randomBytes(18).toString('base64url')}`;
    const secret = SECRET_METHODS.has(body.token_endpoint_auth_method) ? randomBytes(32).toString('base64url') : null;
    const metadata = { ...metadataFor(clientId, body), ...(secret ? { client_secret: secret } : {}) };
    const row = sealedClientRow(ctx.runtime, projectId, metadata, { registeredBy: 'admin', createdAt: ctx.now, now: ctx.now });
    await upsertClientRow(ctx.db, row);
    return { ...toOAuthClientJson(row), client_secret: secret };
  },
});

import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { ClientParams } from './client-fields.ts';
import { findClientRow } from './queries.ts';
import { OAuthClientOutput, toOAuthClientJson } from './wire.ts';

/** `GET /internal/oauth-clients/{client_id}` (admin): one client; 404 when unknown. */
export const getOauthClient = defineOperation({
  id: 'oauthClients.get',
  method: 'GET',
  path: '/internal/oauth-clients/:client_id',
  summary: 'Get one OAuth client of the project’s identity provider.',
  access: ['admin'],
  input: { params: ClientParams },
  errors: [],
  output: OAuthClientOutput,
  async run(ctx, { params }) {
    const row = await findClientRow(ctx.db, ctx.auth.project.id, params.client_id);
    if (!row) throw new StatusError('not-found', 'OAuth client not found.');
    return toOAuthClientJson(row);
  },
});

import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { checkClientFields } from './client-checks.ts';
import { clientMetadata } from './client-record.ts';
import { ClientParams, metadataFor, projectScopes, SECRET_METHODS, type Fields } from './client-fields.ts';
import { findClientRow, upsertClientRow } from './queries.ts';
import { OAuthClientOutput, toOAuthClientJson, UpdateOAuthClientSchema } from './wire.ts';

/**
 * `PATCH /internal/oauth-clients/{client_id}` (admin): changes any creation field; the secret
 * stays (a client moved to a secret method without one gets none: recreate it instead, 400).
 */
export const updateOauthClient = defineOperation({
  id: 'oauthClients.update',
  method: 'PATCH',
  path: '/internal/oauth-clients/:client_id',
  summary: 'Update an OAuth client of the project’s identity provider.',
  access: ['admin'],
  input: { params: ClientParams, body: UpdateOAuthClientSchema },
  errors: [],
  output: OAuthClientOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    const row = await findClientRow(ctx.db, projectId, params.client_id);
    if (!row) throw new StatusError('not-found', 'OAuth client not found.');
    const json = toOAuthClientJson(row);
    const stored = clientMetadata(row);
    const next: Fields = {
      client_name: body.client_name ?? json.client_name,
      redirect_uris: body.redirect_uris ?? json.redirect_uris,
      post_logout_redirect_uris: body.post_logout_redirect_uris ?? json.post_logout_redirect_uris,
      grant_types: (body.grant_types ?? json.grant_types) as Fields['grant_types'],
      token_endpoint_auth_method: (body.token_endpoint_auth_method ??
        json.token_endpoint_auth_method) as Fields['token_endpoint_auth_method'],
      scope: body.scope ?? json.scope,
      skip_consent: body.skip_consent ?? json.skip_consent,
      logo_uri: body.logo_uri !== undefined ? body.logo_uri : json.logo_uri,
      jwks_uri: body.jwks_uri !== undefined ? body.jwks_uri : json.jwks_uri,
      jwks: body.jwks !== undefined ? body.jwks : ((stored.jwks as Fields['jwks']) ?? null),
    };
    checkClientFields(next, projectScopes(ctx));
    if (SECRET_METHODS.has(next.token_endpoint_auth_method) && !row.client_secret_sealed)
      throw new StatusError('bad-request', 'token_endpoint_auth_method: this client has no secret; create a new client instead.');
    const updated = {
      ...row,
      metadata: JSON.stringify(metadataFor(row.client_id, next)),
      client_secret_sealed: SECRET_METHODS.has(next.token_endpoint_auth_method) ? row.client_secret_sealed : null,
      updated_at: ctx.now,
    };
    await upsertClientRow(ctx.db, updated);
    return toOAuthClientJson(updated);
  },
});

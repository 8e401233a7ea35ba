import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { defineOperation, type OperationContext } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { listOutput, SuccessOutput } from '../operations/output.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { checkClientFields } from './client-checks.ts';
import { clientMetadata, sealedClientRow } from './client-record.ts';
import { deleteClientRow, findClientRow, listClientRows, upsertClientRow } from './queries.ts';
import { CreatedOAuthClientOutput, CreateOAuthClientSchema, OAuthClientOutput, toOAuthClientJson, UpdateOAuthClientSchema } from './wire.ts';

/** At most this many clients are listed (and a project's admin API creates no more). */
const MAX_CLIENTS = 1000;

const ClientParams = v.strictObject({ client_id: v.pipe(v.string(), v.maxLength(200)) });
const SECRET_METHODS = new Set(['client_secret_basic', 'client_secret_post']);

type Fields = v.InferOutput<typeof CreateOAuthClientSchema>;

/**
 * The RFC 7591 metadata stored for `fields`: `response_types` follow the grant types (`code` for
 * authorization_code, else none); null and empty optional fields are left out.
 */
function metadataFor(clientId: string, fields: Fields): Record<string, unknown> {
  return {
    client_id: clientId,
    client_name: fields.client_name,
    redirect_uris: fields.redirect_uris,
    ...(fields.post_logout_redirect_uris?.length ? { post_logout_redirect_uris: fields.post_logout_redirect_uris } : {}),
    grant_types: [...new Set(fields.grant_types)],
    response_types: fields.grant_types.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: fields.token_endpoint_auth_method,
    scope: [...new Set(fields.scope.split(' '))].join(' '),
    ...(fields.logo_uri ? { logo_uri: fields.logo_uri } : {}),
    ...(fields.jwks_uri ? { jwks_uri: fields.jwks_uri } : {}),
    ...(fields.jwks ? { jwks: fields.jwks } : {}),
    skip_consent: fields.skip_consent,
  };
}

const projectScopes = (ctx: OperationContext<RequestAuth>) => ctx.auth.project.config.oidc.scopes;

/**
 * `POST /internal/oauth-clients` (admin): registers an OAuth client of the project's identity
 * provider (docs/oauth-provider.md). The secret of a `client_secret_basic`/`_post` client (43
 * characters, 256 bits) is in this answer only; it is stored sealed. Bad combinations answer
 * 400 (client-checks.ts).
 */
export const createOAuthClient = defineOperation({
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

/** `GET /internal/oauth-clients` (admin): the project's clients, oldest first, without secrets. */
export const listOAuthClients = defineOperation({
  id: 'oauthClients.list',
  method: 'GET',
  path: '/internal/oauth-clients',
  summary: 'List the OAuth clients of the project’s identity provider.',
  access: ['admin'],
  input: {},
  errors: [],
  output: listOutput(OAuthClientOutput),
  async run(ctx) {
    const rows = await listClientRows(ctx.db, ctx.auth.project.id, MAX_CLIENTS);
    return { items: rows.map(toOAuthClientJson), is_paginated: false as const };
  },
});

/** `GET /internal/oauth-clients/{client_id}` (admin): one client; 404 when unknown. */
export const getOAuthClient = defineOperation({
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

/**
 * `PATCH /internal/oauth-clients/{client_id}` (admin): changes any creation field; the secret
 * stays (a client moved to a secret method without one gets none: recreate it instead, 400).
 */
export const updateOAuthClient = defineOperation({
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
      token_endpoint_auth_method: (body.token_endpoint_auth_method ?? json.token_endpoint_auth_method) as Fields['token_endpoint_auth_method'],
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

/** `DELETE /internal/oauth-clients/{client_id}` (admin): removes the client; its tokens stop working (the provider finds no client). */
export const deleteOAuthClient = defineOperation({
  id: 'oauthClients.delete',
  method: 'DELETE',
  path: '/internal/oauth-clients/:client_id',
  summary: 'Delete an OAuth client of the project’s identity provider.',
  access: ['admin'],
  input: { params: ClientParams },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params }) {
    if (!(await deleteClientRow(ctx.db, ctx.auth.project.id, params.client_id))) throw new StatusError('not-found', 'OAuth client not found.');
  },
});

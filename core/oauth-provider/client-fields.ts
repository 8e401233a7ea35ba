import * as v from 'valibot';
import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { CreateOAuthClientSchema } from './wire.ts';

/** At most this many clients are listed (and a project's admin API creates no more). */
export const MAX_CLIENTS = 1000;

export const ClientParams = v.strictObject({ client_id: v.pipe(v.string(), v.maxLength(200)) });
export const SECRET_METHODS = new Set(['client_secret_basic', 'client_secret_post']);

export type Fields = v.InferOutput<typeof CreateOAuthClientSchema>;

/**
 * The RFC 7591 metadata stored for `fields`: `response_types` follow the grant types (`code` for
 * authorization_code, else none); null and empty optional fields are left out.
 */
export function metadataFor(clientId: string, fields: Fields): Record<string, unknown> {
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

export const projectScopes = (ctx: OperationContext<RequestAuth>) => ctx.auth.project.config.oidc.scopes;

import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { RedirectOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findProject } from '../projects/index.ts';
import { flowErrorRedirect, providerFailure, redeemProviderCode, takeFlowByState } from '../auth-oauth/index.ts';
import { serviceProviderUrls, ssoProviderId } from './connection.ts';
import { findConnection } from './queries.ts';
import { resolveConnectionProvider } from './oidc.ts';
import { finishSsoSignIn } from './sign-in.ts';
import { groupValues } from './group-permissions.ts';

const param = v.optional(v.pipe(v.string(), v.maxLength(16_384)));

function claim(claims: Record<string, unknown> | null, name: string | undefined): string | null {
  const value = name ? claims?.[name] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 256) : null;
}

/**
 * The OpenID provider's redirect back for an OpenID connection: takes the flow of `state` (single
 * use, 10 minutes: OUTER_OAUTH_TIMEOUT otherwise), redeems the code with PKCE and validates the ID
 * Token (signature, issuer, audience, nonce) through the generic OpenID provider of OAuth sign-in,
 * reads the identity (`sub`, and `email` / `name` / `groups` or the connection's mapped claims), then ends
 * the sign-in (sign-in.ts). Unknown response parameters are ignored (RFC 6749 §4.1.2).
 */
export const ssoOidcCallback = defineOperation({
  id: 'sso.oidcCallback',
  method: 'GET',
  path: '/auth/sso/oidc/:connection_id/callback',
  summary: 'The OpenID provider of an SSO connection redirects back here.',
  access: 'public',
  ignoresUnknownQuery: true,
  input: {
    params: v.strictObject({ connection_id: UuidSchema }),
    query: v.looseObject({
      state: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
      code: param,
      error: param,
      error_description: param,
      iss: param,
    }),
  },
  errors: [
    'OUTER_OAUTH_TIMEOUT',
    'SSO_CONNECTION_NOT_FOUND',
    'OAUTH_PROVIDER_ACCESS_DENIED',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'OAUTH_PROVIDER_URL_NOT_ALLOWED',
    'SIGN_UP_NOT_ENABLED',
    'SIGN_UP_REJECTED',
    'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
    'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
    'USER_EMAIL_ALREADY_EXISTS',
    'BOT_CHALLENGE_FAILED',
  ],
  output: RedirectOutput,
  async run(ctx, { params, query }) {
    const taken = await takeFlowByState(ctx.runtime, ctx, query.state);
    if (taken.status === 'unknown') throw new KnownError('OUTER_OAUTH_TIMEOUT');
    const flow = taken.flow;
    const project = await findProject(ctx.db, flow.projectId);
    if (!project) throw new KnownError('OUTER_OAUTH_TIMEOUT');
    try {
      if (taken.status === 'expired') throw new KnownError('OUTER_OAUTH_TIMEOUT');
      const connection = await findConnection(ctx.db, params.connection_id);
      if (!connection || connection.type !== 'oidc' || flow.providerId !== ssoProviderId(connection.id))
        throw new KnownError('SSO_CONNECTION_NOT_FOUND');
      if (query.error) throw new KnownError('OAUTH_PROVIDER_ACCESS_DENIED');
      const provider = await resolveConnectionProvider(ctx.runtime, connection);
      const callbackParams = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const tokens = await redeemProviderCode(
        ctx.runtime,
        provider,
        callbackParams,
        serviceProviderUrls(ctx.runtime, connection.id).redirectUri,
        flow.secrets,
      );
      const info = await provider.userInfo(tokens).catch((error: unknown) => {
        throw providerFailure(ctx.runtime, error, 'OAUTH_PROVIDER_ACCESS_DENIED', { connection_id: connection.id });
      });
      const mapping = connection.attributeMapping;
      return await finishSsoSignIn(
        ctx,
        project,
        connection,
        flow,
        {
          accountId: info.accountId,
          email: claim(tokens.idTokenClaims, mapping.email) ?? info.email,
          displayName: claim(tokens.idTokenClaims, mapping.name) ?? info.displayName,
          profileImageUrl: info.profileImageUrl,
        },
        groupValues(tokens.idTokenClaims?.[mapping.groups ?? 'groups']),
      );
    } catch (error) {
      if (error instanceof KnownError) return flowErrorRedirect(ctx, project, flow, error, false);
      throw error;
    }
  },
});

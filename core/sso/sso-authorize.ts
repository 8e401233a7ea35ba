import * as v from 'valibot';
import type { Kysely } from 'kysely';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { RedirectOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import type { Database } from '../storage/tables.ts';
import { assessBotChallenge } from '../bot-challenge/index.ts';
import {
  APP_FLOW_ERRORS,
  AppFlowQueryEntries,
  appFlowFields,
  authorizationUrl,
  checkAppFlowRequest,
  flowStartReply,
  newFlowSecrets,
  saveFlow,
} from '../auth-oauth/index.ts';
import { serviceProviderUrls, ssoProviderId, type SsoConnection } from './connection.ts';
import { findConnection, listTeamConnections } from './queries.ts';
import { connectionForEmail } from './email-routing.ts';
import { startSamlRequest } from './saml.ts';
import { resolveConnectionProvider } from './oidc.ts';

/**
 * The connection a sign-in goes through: by `connection_id`, by `team_id` (the team's oldest
 * connection) or by `email` (email-routing.ts), in the project.
 *
 * @throws KnownError SCHEMA_ERROR unless exactly one is given; SSO_CONNECTION_NOT_FOUND
 */
async function pickConnection(
  db: Kysely<Database>,
  projectId: string,
  by: { email?: string | undefined; team_id?: string | undefined; connection_id?: string | undefined },
): Promise<SsoConnection> {
  const given = [by.email, by.team_id, by.connection_id].filter((x) => x !== undefined);
  if (given.length !== 1) throw new KnownError('SCHEMA_ERROR', { message: 'Give exactly one of email, team_id and connection_id.' });
  const connection =
    by.connection_id !== undefined
      ? await findConnection(db, by.connection_id)
      : by.team_id !== undefined
        ? ((await listTeamConnections(db, projectId, by.team_id))[0] ?? null)
        : await connectionForEmail(db, projectId, by.email!);
  if (!connection || connection.projectId !== projectId) throw new KnownError('SSO_CONNECTION_NOT_FOUND');
  return connection;
}

/**
 * Starts a sign-in through a team's SSO connection (issue 32): the query of
 * `/auth/oauth/authorize/{provider}` (the same client, redirect, state, S256 PKCE and bot
 * challenge checks, core/auth-oauth app-flow.ts; `scope` optional, `legacy` when given) plus one of
 * `email`, `team_id`, `connection_id`. Keeps the flow server-side (single use, 10 minutes) and
 * redirects (307) to the IdP: a signed SAML AuthnRequest (HTTP-Redirect binding) whose id the
 * response must answer, or an OpenID authorization request with state, PKCE and nonce. The IdP
 * returns to the ACS or the OpenID callback, which end with a code for `/auth/oauth/token`.
 */
export const ssoAuthorize = defineOperation({
  id: 'sso.authorize',
  method: 'GET',
  path: '/auth/sso/authorize',
  summary: "Start a sign-in through a team's SSO connection (SAML or OpenID Connect).",
  access: 'public',
  input: {
    query: v.strictObject({
      ...AppFlowQueryEntries,
      scope: v.optional(v.pipe(v.string(), v.maxLength(256))),
      email: v.optional(v.pipe(v.string(), v.maxLength(320))),
      team_id: v.optional(UuidSchema),
      connection_id: v.optional(UuidSchema),
    }),
  },
  errors: [
    ...APP_FLOW_ERRORS,
    'INVALID_SCOPE',
    'SSO_CONNECTION_NOT_FOUND',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'OAUTH_PROVIDER_URL_NOT_ALLOWED',
  ],
  output: v.union([v.strictObject({ location: v.string() }), RedirectOutput]),
  async run(ctx, { query }) {
    const { project, errorRedirectUrl } = await checkAppFlowRequest(ctx, query);
    if (query.scope !== undefined && query.scope !== 'legacy') throw new KnownError('INVALID_SCOPE', { scope: query.scope });
    const connection = await pickConnection(ctx.db, project.id, query);
    const botChallenge = await assessBotChallenge(ctx, project, query, 'oauth_authenticate');
    let location: string;
    let secrets = newFlowSecrets();
    if (connection.type === 'saml') {
      const request = await startSamlRequest(ctx.runtime, connection);
      location = request.location;
      // The AuthnRequest id is the key the response's InResponseTo finds the flow by.
      secrets = { state: request.requestId, codeVerifier: '', nonce: '' };
    } else {
      const provider = await resolveConnectionProvider(ctx.runtime, connection);
      location = await authorizationUrl(provider, serviceProviderUrls(ctx.runtime, connection.id).redirectUri, secrets, [
        'openid',
        'email',
        'profile',
      ]);
    }
    await saveFlow(ctx, {
      ...appFlowFields(query, errorRedirectUrl),
      projectId: project.id,
      providerId: ssoProviderId(connection.id),
      type: 'authenticate',
      userId: null,
      sessionId: null,
      providerScope: null,
      secrets,
      botChallenge,
    });
    return flowStartReply(query, location);
  },
});

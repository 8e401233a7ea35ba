import * as v from 'valibot';
import { defineOperation, reply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { RedirectOutput } from '../operations/output.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findProject } from '../projects/index.ts';
import { flowErrorRedirect, takeFlowByState, type OuterFlow } from '../auth-oauth/index.ts';
import { ssoProviderId } from './connection.ts';
import { findConnection, recordAssertionId } from './queries.ts';
import { MAX_SAML_RESPONSE_CHARS, validateSamlResponse } from './saml.ts';
import { samlGroups, samlIdentity } from './saml-identity.ts';
import { finishSsoSignIn, recordSsoFailure } from './sign-in.ts';

/**
 * The Assertion Consumer Service of a SAML connection (HTTP-POST binding, SAML Bindings §3.5):
 * validates the `SAMLResponse` (saml.ts: signed assertion, issuer, audience, recipient,
 * destination, time window with 60 s skew, InResponseTo against the stored request, decryption),
 * refuses an assertion id already used through the connection (replay), then ends the sign-in
 * (sign-in.ts) with a 303 to the app's `redirect_uri`. An unsolicited response (no InResponseTo)
 * is refused unless the connection allows IdP-initiated sign-in: then, once valid, the browser is
 * sent to `idp_initiated_redirect_url?connection_id=…` where the app starts an SP-initiated
 * sign-in (the assertion itself never signs anyone in without a request of ours). Refusals go to
 * the flow's `error_redirect_url` when the response named a flow, and to the sign-in failure log.
 */
export const ssoSamlAcs = defineOperation({
  id: 'sso.samlAcs',
  method: 'POST',
  path: '/auth/sso/saml/:connection_id/acs',
  summary: 'The SAML identity provider posts its response here (Assertion Consumer Service).',
  access: 'public',
  input: {
    params: v.strictObject({ connection_id: UuidSchema }),
    body: v.strictObject({
      SAMLResponse: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_SAML_RESPONSE_CHARS)),
      RelayState: v.optional(v.pipe(v.string(), v.maxLength(4096))),
    }),
  },
  errors: [
    'SSO_CONNECTION_NOT_FOUND',
    'SSO_RESPONSE_INVALID',
    'OUTER_OAUTH_TIMEOUT',
    'SIGN_UP_NOT_ENABLED',
    'SIGN_UP_REJECTED',
    'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
    'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
    'USER_EMAIL_ALREADY_EXISTS',
    'BOT_CHALLENGE_FAILED',
  ],
  output: RedirectOutput,
  async run(ctx, { params, body }) {
    const connection = await findConnection(ctx.db, params.connection_id);
    if (!connection || connection.type !== 'saml') throw new KnownError('SSO_CONNECTION_NOT_FOUND');
    const project = await findProject(ctx.db, connection.projectId);
    if (!project) throw new KnownError('SSO_CONNECTION_NOT_FOUND');
    let flow: OuterFlow | null = null;
    let expired = false;
    const take = async (requestId: string) => {
      const taken = await takeFlowByState(ctx.runtime, ctx, requestId);
      if (taken.status === 'unknown' || taken.flow.providerId !== ssoProviderId(connection.id) || taken.flow.projectId !== project.id)
        return false;
      flow = taken.flow;
      expired = taken.status === 'expired';
      return !expired;
    };
    try {
      const validated = await validateSamlResponse(ctx.runtime, connection, body.SAMLResponse, take);
      if (!(await recordAssertionId(ctx.db, connection.id, validated.assertionId, validated.usableUntil, ctx.now)))
        throw new KnownError('SSO_RESPONSE_INVALID', { reason: 'replayed' });
      const identity = samlIdentity(validated.profile, connection.attributeMapping);
      const solicited = flow as OuterFlow | null;
      if (!solicited) {
        // Only reachable when the connection allows IdP-initiated sign-in (node-saml refuses a
        // missing InResponseTo otherwise): bounce to the app, which starts an SP-initiated sign-in.
        if (!connection.allowIdpInitiated || !connection.idpInitiatedRedirectUrl)
          throw new KnownError('SSO_RESPONSE_INVALID', { reason: 'unsolicited' });
        const target = new URL(connection.idpInitiatedRedirectUrl);
        target.searchParams.set('connection_id', connection.id);
        return reply.redirect(target.toString(), { seeOther: true });
      }
      return await finishSsoSignIn(
        ctx,
        project,
        connection,
        solicited,
        identity,
        samlGroups(validated.profile, connection.attributeMapping),
      );
    } catch (error) {
      if (!(error instanceof KnownError)) throw error;
      if (error.code === 'SSO_RESPONSE_INVALID') await recordSsoFailure(ctx, connection);
      const reported = expired ? new KnownError('OUTER_OAUTH_TIMEOUT') : error;
      return flowErrorRedirect(ctx, project, flow, reported, true);
    }
  },
});

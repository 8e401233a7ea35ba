import * as v from 'valibot';
import { SIGN_IN_ATTEMPT_ERRORS } from '../sign-up-rules/index.ts';
import { type OperationContext, type RawReply } from '../operations/define.ts';
import { KnownError, type KnownErrorCode } from '../errors/index.ts';
import { findProject } from '../projects/index.ts';
import { codeRedirect, flowErrorRedirect } from './app-flow.ts';
import { providerCallbackUrl } from './authorize-oauth.ts';
import { takeFlowByState } from './flow-state.ts';
import { providerFailure, resolveProvider } from './providers/resolve.ts';
import { flowScopes, redeemProviderCode } from './providers/exchange.ts';
import { settleAccount } from './accounts.ts';
import { storeProviderTokens } from './provider-tokens.ts';
import { issueAuthorizationCode } from './authorization-codes.ts';
import { assertSessionLive } from '../auth/request-auth.ts';

export const CALLBACK_ERRORS: KnownErrorCode[] = [
  'OUTER_OAUTH_TIMEOUT',
  'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
  'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION',
  'OAUTH_PROVIDER_URL_NOT_ALLOWED',
  'OAUTH_PROVIDER_ACCESS_DENIED',
  'SIGN_UP_NOT_ENABLED',
  'SIGN_UP_REJECTED',
  'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
  'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION',
  'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
  'USER_AUTHENTICATION_REQUIRED',
  'USER_EMAIL_ALREADY_EXISTS',
  'BOT_CHALLENGE_FAILED',
  ...SIGN_IN_ATTEMPT_ERRORS,
];

const param = v.optional(v.pipe(v.string(), v.maxLength(16_384)));
/** The authorization response parameters (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 `iss`; Apple's form_post adds `id_token` and `user`). */
export const responseEntries = {
  state: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  code: param,
  error: param,
  error_description: param,
  error_uri: param,
  iss: param,
  id_token: param,
  user: param,
};

/**
 * Finishes the provider side of a flow and hands the app a Gatehouse authorization code
 * (upstream `auth/oauth/callback/[provider_id]/route.tsx`): takes the flow of `state` (single
 * use; OUTER_OAUTH_TIMEOUT when unknown or older than 10 minutes), redeems the provider's code
 * with Gatehouse's PKCE verifier (ID Token validated for OpenID providers), reads the account's
 * identity, checks that a link flow's session is still live, then in one transaction signs up /
 * signs in / links the user, keeps the provider
 * tokens (encrypted) and issues the code. Redirects to the app's `redirect_uri` with `code` and
 * the app's `state`; known errors go to `error_redirect_url` when the flow has a trusted one.
 * No network I/O happens inside the transaction.
 */
export async function finishCallback(
  ctx: OperationContext,
  providerId: string,
  input: Record<string, string | undefined>,
  seeOther: boolean,
): Promise<RawReply> {
  const taken = await takeFlowByState(ctx.runtime, ctx, input.state ?? '');
  if (taken.status === 'unknown') throw new KnownError('OUTER_OAUTH_TIMEOUT');
  const flow = taken.flow;
  const project = await findProject(ctx.db, flow.projectId);
  if (!project) throw new KnownError('OUTER_OAUTH_TIMEOUT');
  try {
    if (taken.status === 'expired') throw new KnownError('OUTER_OAUTH_TIMEOUT');
    if (flow.providerId !== providerId) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    if (input.error) throw new KnownError('OAUTH_PROVIDER_ACCESS_DENIED');
    const provider = await resolveProvider(ctx.runtime, project, providerId);
    const callbackParams = new URLSearchParams(Object.entries(input).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const tokens = await redeemProviderCode(
      ctx.runtime,
      provider,
      callbackParams,
      providerCallbackUrl(ctx.runtime, providerId),
      flow.secrets,
    );
    const info = await provider.userInfo(tokens).catch((error: unknown) => {
      throw providerFailure(ctx.runtime, error, 'OAUTH_PROVIDER_ACCESS_DENIED', { provider: providerId });
    });
    // A link needs a live session: the one that started it may have been signed out, revoked or
    // ended by a password reset while the user was at the provider.
    if (flow.type === 'link') {
      if (!flow.sessionId) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
      await assertSessionLive(ctx.runtime, flow.sessionId, 'USER_AUTHENTICATION_REQUIRED');
    }
    const code = await ctx.transaction(async (tx) => {
      const settled = await settleAccount(tx, project, providerId, info, flow.type, flow.userId, flow.botChallenge ?? { result: 'error' });
      await storeProviderTokens(tx, project.id, settled.account.id, tokens, flowScopes(provider, flow.providerScope ?? undefined));
      return issueAuthorizationCode(tx, {
        projectId: project.id,
        userId: settled.user.id,
        redirectUri: flow.redirectUri,
        codeChallenge: flow.codeChallenge,
        isNewUser: settled.isNewUser,
        afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl,
      });
    });
    return codeRedirect(flow, code, seeOther);
  } catch (error) {
    if (error instanceof KnownError) return flowErrorRedirect(ctx, project, flow, error, seeOther);
    throw error;
  }
}

import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { verifyLiveAccessToken } from '../auth/request-auth.ts';
import type { Runtime } from '../runtime.ts';
import { resolveProvider } from './providers/resolve.ts';
import { authorizationUrl, flowScopes, newFlowSecrets } from './providers/exchange.ts';
import { saveFlow } from './flow-state.ts';
import { RedirectOutput } from '../operations/output.ts';
import { assessBotChallenge } from '../bot-challenge/index.ts';
import { API_PREFIX } from '../operations/api-path.ts';
import { APP_FLOW_ERRORS, AppFlowQueryEntries, appFlowFields, checkAppFlowRequest, flowStartReply } from './app-flow.ts';

/** Where a provider sends the user back: `<base>/api/v1/auth/oauth/callback/<provider id>` (paste this at the provider). */
export function providerCallbackUrl(runtime: Runtime, providerId: string): string {
  return `${runtime.baseUrl}${API_PREFIX}/auth/oauth/callback/${encodeURIComponent(providerId)}`;
}

const text = (max = 4096) => v.pipe(v.string(), v.maxLength(max));

/**
 * Starts an OAuth sign-in or link as Stack's SDK drives
 * it (`getOAuthUrl` / `authorizeOAuth`; upstream `auth/oauth/authorize/[provider_id]/route.tsx`).
 *
 * Checks, before anything leaves for the provider: the client (project id + publishable key or
 * sentinel), the provider (configured and enabled), `redirect_uri` and `error_redirect_url`
 * against the trusted domains, `scope=legacy`, S256 PKCE, and for
 * `type=link` the access token in `token` (checked as any request's: signature, expiry, project and
 * a session that was not revoked), and the bot challenge (core/bot-challenge:
 * BOT_CHALLENGE_REQUIRED / BOT_CHALLENGE_FAILED; its result is kept for the callback's sign-up
 * rules). Then keeps the flow server-side (Gatehouse's own state,
 * PKCE verifier and nonce towards the provider; single use, 10 minutes) and redirects (307) to
 * the provider, or answers `{location}` when `stack_response_mode=json`.
 */
export const authorizeOAuth = defineOperation({
  id: 'authOauth.authorize',
  method: 'GET',
  path: '/auth/oauth/authorize/:provider_id',
  summary: 'Start an OAuth sign-in or account link with a provider.',
  access: 'public',
  input: {
    params: v.strictObject({ provider_id: text(64) }),
    query: v.strictObject({
      ...AppFlowQueryEntries,
      scope: text(256),
      type: v.optional(v.picklist(['authenticate', 'link']), 'authenticate'),
      token: v.optional(text(8192)),
      provider_scope: v.optional(text(2048)),
    }),
  },
  errors: [
    ...APP_FLOW_ERRORS,
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'INVALID_SCOPE',
    'USER_AUTHENTICATION_REQUIRED',
    'UNPARSABLE_ACCESS_TOKEN',
    'ACCESS_TOKEN_EXPIRED',
    'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    'OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS',
    'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION',
    'OAUTH_PROVIDER_URL_NOT_ALLOWED',
  ],
  output: v.union([v.strictObject({ location: v.string() }), RedirectOutput]),
  async run(ctx, { params, query }) {
    const { project, errorRedirectUrl } = await checkAppFlowRequest(ctx, query);
    if (query.scope !== 'legacy') throw new KnownError('INVALID_SCOPE', { scope: query.scope });
    const provider = await resolveProvider(ctx.runtime, project, params.provider_id);

    let userId: string | null = null;
    let sessionId: string | null = null;
    if (query.token) {
      // The same check as any request's access token: a revoked, signed-out or pre-reset session
      // never attaches an account.
      const claims = await verifyLiveAccessToken(ctx.runtime, query.token, project.id, ctx.now);
      userId = claims.sub;
      sessionId = claims.refresh_token_id;
      if (query.provider_scope && provider.isShared) throw new KnownError('OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
    }
    if (query.type === 'link' && !userId) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    // The bot challenge (action `oauth_authenticate`), kept with the flow for the sign-up rules.
    const botChallenge = await assessBotChallenge(ctx, project, query, 'oauth_authenticate');

    const secrets = newFlowSecrets();
    const location = await authorizationUrl(
      provider,
      providerCallbackUrl(ctx.runtime, provider.id),
      secrets,
      flowScopes(provider, query.provider_scope),
    );
    await saveFlow(ctx, {
      ...appFlowFields(query, errorRedirectUrl),
      projectId: project.id,
      providerId: provider.id,
      type: query.type,
      userId: query.type === 'link' ? userId : null,
      sessionId: query.type === 'link' ? sessionId : null,
      providerScope: query.provider_scope ?? null,
      secrets,
      botChallenge,
    });
    return flowStartReply(query, location);
  },
});

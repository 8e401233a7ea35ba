import * as v from 'valibot';
import { reply, type OperationContext, type RawReply } from '../operations/define.ts';
import { KnownError, redirectUrlNotWhitelisted, type KnownErrorCode } from '../errors/index.ts';
import { isRedirectUrlTrusted } from '../config/domains.ts';
import type { Project } from '../projects/index.ts';
import { BOT_CHALLENGE_ERRORS, BotChallengeQueryEntries } from '../bot-challenge/index.ts';
import { redirectTrust, resolveOAuthClient } from './client.ts';
import { withoutFragment } from './authorization-codes.ts';
import type { OuterFlow } from './flow-state.ts';

const text = (max = 4096) => v.pipe(v.string(), v.maxLength(max));
const JsonMode = v.optional(v.picklist(['json', 'redirect']));

/**
 * The app's side of a sign-in start, as Stack's SDK sends it to `/auth/oauth/authorize/{provider}`
 * (and Gatehouse's SDK to `/auth/sso/authorize`): the OAuth client, its redirect URIs, its state
 * and S256 PKCE challenge, the response mode and the bot challenge.
 */
export const AppFlowQueryEntries = {
  client_id: text(256),
  client_secret: text(512),
  redirect_uri: text(),
  state: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  grant_type: v.picklist(['authorization_code']),
  code_challenge: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a base64url S256 challenge')),
  code_challenge_method: v.picklist(['S256']),
  response_type: v.picklist(['code']),
  error_redirect_url: v.optional(text()),
  error_redirect_uri: v.optional(text()),
  after_callback_redirect_url: v.optional(text()),
  stack_response_mode: JsonMode,
  hexclave_response_mode: JsonMode,
  response_mode: JsonMode,
  ...BotChallengeQueryEntries,
};

/** The query those entries validate to. */
export type AppFlowQuery = v.InferOutput<v.ObjectSchema<typeof AppFlowQueryEntries, undefined>>;

/** Known errors of {@link checkAppFlowRequest} and the bot challenge. */
export const APP_FLOW_ERRORS: KnownErrorCode[] = [
  'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
  'INVALID_PUBLISHABLE_CLIENT_KEY',
  'REDIRECT_URL_NOT_WHITELISTED',
  ...BOT_CHALLENGE_ERRORS,
];

/**
 * Checks the app's side of a sign-in start before anything leaves for a provider: the client
 * (project id + publishable key or sentinel), then `redirect_uri`, `error_redirect_url` and
 * `after_callback_redirect_url` against the project's trusted domains.
 *
 * @returns the project and the error redirect URL (null when none was given)
 * @throws KnownError INVALID_OAUTH_CLIENT_ID_OR_SECRET, INVALID_PUBLISHABLE_CLIENT_KEY, REDIRECT_URL_NOT_WHITELISTED
 */
export async function checkAppFlowRequest(
  ctx: OperationContext,
  query: AppFlowQuery,
): Promise<{ project: Project; errorRedirectUrl: string | null }> {
  const project = await resolveOAuthClient(ctx, query.client_id, query.client_secret, 'INVALID_PUBLISHABLE_CLIENT_KEY');
  const trust = redirectTrust(ctx, project);
  const errorRedirectUrl = query.error_redirect_uri ?? query.error_redirect_url ?? null;
  for (const url of [query.redirect_uri, errorRedirectUrl, query.after_callback_redirect_url ?? null]) {
    if (url !== null && !isRedirectUrlTrusted(url, trust)) throw redirectUrlNotWhitelisted(url);
  }
  return { project, errorRedirectUrl };
}

/** The app's fields of a flow to keep until the provider answers. */
export function appFlowFields(
  query: AppFlowQuery,
  errorRedirectUrl: string | null,
): Pick<OuterFlow, 'redirectUri' | 'appState' | 'codeChallenge' | 'errorRedirectUrl' | 'afterCallbackRedirectUrl'> {
  return {
    redirectUri: withoutFragment(query.redirect_uri),
    appState: query.state,
    codeChallenge: query.code_challenge,
    errorRedirectUrl,
    afterCallbackRedirectUrl: query.after_callback_redirect_url ?? null,
  };
}

/** The answer to a sign-in start: a 307 to the provider, or `{location}` when a response mode asks for JSON. */
export function flowStartReply(query: AppFlowQuery, location: string): RawReply | { location: string } {
  const json = [query.stack_response_mode, query.hexclave_response_mode, query.response_mode].includes('json');
  return json ? { location } : reply.redirect(location);
}

/** The redirect that ends a flow: the app's `redirect_uri` with Gatehouse's `code` and the app's `state`. */
export function codeRedirect(flow: Pick<OuterFlow, 'redirectUri' | 'appState'>, code: string, seeOther: boolean): RawReply {
  const target = new URL(flow.redirectUri);
  target.searchParams.set('code', code);
  target.searchParams.set('state', flow.appState);
  return reply.redirect(target.toString(), { seeOther });
}

/** Sends a known error to the flow's `error_redirect_url` (`errorCode`, `message`, `details`), as the SDK's callback page reads it; throws it when there is none. */
export function flowErrorRedirect(
  ctx: OperationContext,
  project: Project | null,
  flow: Pick<OuterFlow, 'errorRedirectUrl'> | null,
  error: KnownError,
  seeOther: boolean,
): RawReply {
  const target = flow?.errorRedirectUrl;
  if (!project || !target || !isRedirectUrlTrusted(target, redirectTrust(ctx, project))) throw error;
  const url = new URL(target);
  url.searchParams.set('errorCode', error.code);
  url.searchParams.set('message', error.message);
  url.searchParams.set('details', JSON.stringify(error.details ?? {}));
  return reply.redirect(url.toString(), { seeOther });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { Runtime } from '../../core/runtime.ts';
import {
  findOauthClient,
  oidcModelStore,
  recordGrantCreated,
  SESSION_LINK_MODEL,
  signedInUser,
  skipsConsent,
  type Project,
} from '../../core/index.ts';
import { httpOnlyRefreshCookieName } from '../../core/protocol/cookie-bridge.ts';
import { consentPage } from './consent-page.ts';
import { providerPageCsp } from './provider-page.ts';

const INTERACTION_PATH = /^\/interaction\/([A-Za-z0-9_-]{1,64})(\/login|\/confirm|\/abort)?$/;

/** Whether `rest` (the path under the issuer) is an interaction page's. */
export function isInteractionPath(rest: string): boolean {
  return INTERACTION_PATH.test(rest);
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, error: string, description: string) {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify({ error, error_description: description }));
}

/**
 * The interaction pages of the authorization flow, a node:http handler under
 * `<issuer>/interaction/<uid>` (oidc-provider's `interactions.url`):
 * - `GET …/<uid>` — sign-in needed: redirect to the project's hosted sign-in
 *   (`/projects/<id>/handler/sign-in`, so every sign-in method and MFA the project enforces apply)
 *   returning to `…/<uid>/login`; consent needed: the consent page (consent-page.ts), or straight
 *   approval for a `skip_consent` client;
 * - `GET …/<uid>/login` — the hosted pages' session (their HttpOnly refresh cookie) is the
 *   signed-in user; finishes the login prompt;
 * - `POST …/<uid>/confirm` — grants the requested scopes and claims, remembering the approving
 *   Gatehouse session (a signed-out session's grants stop refreshing);
 * - `POST …/<uid>/abort` — `access_denied` to the client.
 * The interaction cookie (SameSite=Lax, oidc-provider's) ties every step to the browser that
 * started it, so a cross-site form cannot confirm.
 */
export async function handleInteraction(
  runtime: Runtime,
  project: Project,
  provider: any,
  issuer: string,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
): Promise<void> {
  const match = INTERACTION_PATH.exec(rest)!;
  const uid = match[1]!;
  const step = match[2] ?? '';
  const method = req.method ?? 'GET';
  if ((step === '' || step === '/login') && method !== 'GET') return sendError(res, 405, 'invalid_request', 'Method not allowed.');
  if ((step === '/confirm' || step === '/abort') && method !== 'POST') return sendError(res, 405, 'invalid_request', 'Method not allowed.');
  let details: any;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return sendError(
      res,
      400,
      'invalid_request',
      'The authorization request expired or was started in another browser; start again from the application.',
    );
  }
  if (details.uid !== uid) return sendError(res, 400, 'invalid_request', 'The authorization request does not match this browser.');
  const { prompt, params } = details;
  const clientId = String(params.client_id ?? '');
  const session = () => {
    const token = parseCookies(req.headers.cookie ?? '')[httpOnlyRefreshCookieName(project.id)];
    return token ? signedInUser(runtime, project.id, token) : Promise.resolve(null);
  };
  const finish = (result: Record<string, unknown>, merge: boolean) =>
    provider.interactionFinished(req, res, result, { mergeWithLastSubmission: merge });

  if (step === '/abort') return finish({ error: 'access_denied', error_description: 'The user denied the request.' }, false);

  if (prompt.name === 'login') {
    const signedIn = step === '/login' ? await session() : null;
    if (signedIn) return finish({ login: { accountId: signedIn.userId } }, false);
    if (step === '/login') return sendError(res, 400, 'login_required', 'Sign-in did not complete.');
    // Relative: the hosted pages follow only relative return URLs or the project's trusted domains (sdk/redirect.ts).
    const returnTo = `${new URL(issuer).pathname}/interaction/${uid}/login`;
    const signIn = `${runtime.baseUrl}/projects/${project.id}/handler/sign-in?after_auth_return_to=${encodeURIComponent(returnTo)}`;
    return send(res, 303, 'text/plain; charset=utf-8', '', { location: signIn });
  }

  if (prompt.name !== 'consent') return sendError(res, 400, 'invalid_request', `Unsupported interaction prompt ${String(prompt.name)}.`);
  const client = await findOauthClient(runtime, project.id, clientId);
  if (!client) return sendError(res, 400, 'invalid_client', 'The client is gone.');
  const accountId = String(details.session?.accountId ?? '');

  if (step === '' && !skipsConsent(client)) {
    const metadata = await provider.Client.find(clientId);
    return send(
      res,
      200,
      'text/html; charset=utf-8',
      consentPage({
        projectName: project.displayName,
        clientName: metadata?.clientName ?? clientId,
        logoUri: metadata?.logoUri ?? null,
        scopes: [
          ...new Set<string>([
            ...(prompt.details.missingOIDCScope ?? []),
            ...Object.values<string[]>(prompt.details.missingResourceScopes ?? {}).flat(),
          ]),
        ],
        confirmAction: `${issuer}/interaction/${uid}/confirm`,
        abortAction: `${issuer}/interaction/${uid}/abort`,
      }),
      { 'content-security-policy': providerPageCsp(metadata?.redirectUris ?? []) },
    );
  }
  if (step === '/login') return sendError(res, 400, 'invalid_request', 'Sign-in is already complete.');

  // A grant the user revoked since (account settings) is gone: the approval starts a new one.
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries<string[]>(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId: string = await grant.save();
  if (!existing)
    await recordGrantCreated(runtime, project.id, {
      grantId,
      clientId,
      userId: accountId,
      scopes: [
        ...new Set<string>([...(missing.missingOIDCScope ?? []), ...Object.values<string[]>(missing.missingResourceScopes ?? {}).flat()]),
      ],
    });
  const signedIn = await session();
  if (signedIn && signedIn.userId === accountId)
    await oidcModelStore(runtime, project.id, SESSION_LINK_MODEL).upsert(grantId, {
      grantId,
      sessionId: signedIn.sessionId,
      accountId,
      // Stored in the `uid` column too, so a refresh grant reads the session with the user (core/oauth-provider/account.ts).
      uid: signedIn.sessionId,
    });
  return finish({ consent: { grantId } }, true);
}

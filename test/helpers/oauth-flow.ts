import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from './server.ts';

/** The app side of Stack's SDK OAuth flow (`getOAuthUrl` + `callOAuthCallback`), with fetch. */
export interface AppFlow {
  state: string;
  verifier: string;
  redirectUri: string;
}

export const APP_REDIRECT_URI = 'http://localhost:3000/handler/oauth-callback';
export const APP_ERROR_URL = 'http://localhost:3000/handler/error';

/** A fresh PKCE verifier and state, as the SDK's `saveVerifierAndState` makes. */
export function newAppFlow(redirectUri = APP_REDIRECT_URI): AppFlow {
  return { state: randomBytes(16).toString('base64url'), verifier: randomBytes(32).toString('base64url'), redirectUri };
}

/** The authorize URL exactly as `getOAuthUrl` builds it (plus extra parameters). */
export function authorizeUrl(
  server: TestServer,
  providerId: string,
  projectId: string,
  flow: AppFlow,
  extra: Record<string, string> = {},
): string {
  const url = new URL(`${server.url}/api/v1/auth/oauth/authorize/${providerId}`);
  const params: Record<string, string> = {
    client_id: projectId,
    client_secret: '__stack_public_client__',
    redirect_uri: flow.redirectUri,
    scope: 'legacy',
    state: flow.state,
    grant_type: 'authorization_code',
    code_challenge: createHash('sha256').update(flow.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    response_type: 'code',
    type: 'authenticate',
    error_redirect_url: APP_ERROR_URL,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Calls the Gatehouse callback the provider redirected to and returns the app redirect it answers. */
export async function followCallback(callbackUrl: string): Promise<URL> {
  const res = await fetch(callbackUrl, { redirect: 'manual' });
  const text = await res.text();
  assert.ok(res.status === 307 || res.status === 303, `callback answered ${res.status}: ${text}`);
  return new URL(res.headers.get('location')!);
}

/** The token exchange of `callOAuthCallback` (form-encoded, client_secret_post). */
export async function exchangeCode(server: TestServer, projectId: string, code: string, verifier: string, redirectUri = APP_REDIRECT_URI) {
  const res = await fetch(`${server.url}/api/v1/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      code,
      code_verifier: verifier,
      client_id: projectId,
      client_secret: '__stack_public_client__',
    }),
  });
  const text = await res.text();
  assert.ok(res.status < 500, text);
  return { status: res.status, body: JSON.parse(text), headers: res.headers };
}

import { createHash } from 'node:crypto';
import { APP_ERROR_URL, type AppFlow } from './oauth-flow.ts';
import type { TestServer } from './server.ts';

/** `/auth/sso/authorize` as Gatehouse's SDK calls it (the OAuth authorize query plus who signs in). */
export function ssoAuthorizeUrl(server: TestServer, projectId: string, flow: AppFlow, extra: Record<string, string>): string {
  const url = new URL(`${server.url}/api/v1/auth/sso/authorize`);
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
    error_redirect_url: APP_ERROR_URL,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** Posts a SAMLResponse to an ACS as the IdP's auto-post form does. */
export async function postAcs(acsUrl: string, samlResponse: string): Promise<Response> {
  return fetch(acsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
    redirect: 'manual',
  });
}

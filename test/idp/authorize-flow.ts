import * as oidc from 'openid-client';
import type { TestServer } from '../helpers/server.ts';
import type { idpProject } from './idp-fixtures.ts';
import { approveInHostedPages } from './hosted-authorization.ts';

/** The redirect URI of the test clients (nothing listens there: the flow stops at the redirect). */
export const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * Runs the authorization request through sign-in and (unless skipped) consent with a cookie jar;
 * answers the callback URL with the code.
 */
export function authorize(
  _server: TestServer,
  p: Awaited<ReturnType<typeof idpProject>>,
  config: oidc.Configuration,
  user: { refreshToken: string },
  params: Record<string, string>,
  options: { expectConsent: boolean },
): Promise<string> {
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, ...params }).href;
  return approveInHostedPages(p.projectId, url, user, REDIRECT, options);
}

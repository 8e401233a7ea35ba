import type { Credentials } from '../../core/index.ts';

/** Request headers, lowercase names; repeated headers joined. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

/**
 * Reads a Stack header under either prefix, `x-stack-<name>` or `x-hexclave-<name>`
 * (upstream packages/stack-shared/src/interface/client-interface.ts). Empty values count as
 * absent (owned-project apps send empty keys).
 */
export function stackHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[`x-stack-${name}`] || headers[`x-hexclave-${name}`];
  return value === '' ? undefined : value;
}

/**
 * Turns request headers into the caller's {@link Credentials}: access type, project and branch,
 * the three project keys, the admin access token, the access and refresh tokens, and the
 * `allow-anonymous-user` / `allow-restricted-user` flags (`'true'` only). Checks nothing: core
 * resolves and checks them in upstream's order.
 */
export function credentialsFromHeaders(headers: RequestHeaders): Credentials {
  const out: Record<string, string | boolean> = {};
  const put = (key: keyof Credentials, name: string) => {
    const value = stackHeader(headers, name);
    if (value !== undefined) out[key] = value;
  };
  put('accessType', 'access-type');
  put('projectId', 'project-id');
  put('branchId', 'branch-id');
  put('publishableClientKey', 'publishable-client-key');
  put('secretServerKey', 'secret-server-key');
  put('superSecretAdminKey', 'super-secret-admin-key');
  put('adminAccessToken', 'admin-access-token');
  put('accessToken', 'access-token');
  put('refreshToken', 'refresh-token');
  if (stackHeader(headers, 'allow-anonymous-user') === 'true') out.allowAnonymousUser = true;
  if (stackHeader(headers, 'allow-restricted-user') === 'true') out.allowRestrictedUser = true;
  return out as Credentials;
}

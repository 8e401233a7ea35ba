import type { Credentials } from '../../core/index.ts';

/** Request headers, lowercase names; repeated headers joined. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

/**
 * Reads a Stack header under either prefix, `x-stack-<name>` or `x-hexclave-<name>`
 * (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/client-interface.ts). Empty values count as
 * absent (owned-project apps send empty keys).
 */
export function stackHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[`x-stack-${name}`] || headers[`x-hexclave-${name}`];
  return value === '' ? undefined : value;
}

/**
 * Turns request headers into the caller's {@link Credentials}: access type, project and branch,
 * the three project keys, the admin access token, the access and refresh tokens, and the
 * `allow-anonymous-user` / `allow-restricted-user` flags (`'true'` only), and the `Authorization`
 * header (for the operations an operator secret guards). Checks nothing: core
 * resolves and checks them in upstream's order.
 */
export function credentialsFromHeaders(headers: RequestHeaders): Credentials {
  const out: Record<string, string | boolean> = {};
  for (const [key, stackName, hexclaveName] of CREDENTIAL_HEADERS) {
    const value = headers[stackName] || headers[hexclaveName];
    if (value !== undefined && value !== '') out[key] = value;
  }
  if (stackHeader(headers, 'allow-anonymous-user') === 'true') out.allowAnonymousUser = true;
  if (stackHeader(headers, 'allow-restricted-user') === 'true') out.allowRestrictedUser = true;
  if (headers.authorization !== undefined) out.authorization = headers.authorization;
  return out as Credentials;
}

/** Credential → its header under both prefixes (names built once, not per request). */
const CREDENTIAL_HEADERS: ReadonlyArray<readonly [keyof Credentials, string, string]> = (
  [
    ['accessType', 'access-type'],
    ['projectId', 'project-id'],
    ['branchId', 'branch-id'],
    ['publishableClientKey', 'publishable-client-key'],
    ['secretServerKey', 'secret-server-key'],
    ['superSecretAdminKey', 'super-secret-admin-key'],
    ['adminAccessToken', 'admin-access-token'],
    ['accessToken', 'access-token'],
    ['refreshToken', 'refresh-token'],
  ] as const
).map(([key, name]) => [key, `x-stack-${name}`, `x-hexclave-${name}`] as const);

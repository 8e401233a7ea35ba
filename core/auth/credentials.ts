/**
 * What a caller presents to authenticate one call, as the host read it from its transport (the
 * HTTP host: the Stack request headers, server-bin/api/credentials.ts).
 * Every field is the value as sent, absent when not sent (an empty value counts as absent);
 * core checks them in upstream's `parseAuth` order (core/auth/request-auth.ts), so
 * `accessType` stays an unchecked string here: an unknown value is INVALID_ACCESS_TYPE.
 */
export interface Credentials {
  /** `client`, `server` or `admin` when well-formed. */
  readonly accessType?: string;
  readonly projectId?: string;
  /** The project branch; absent means `main`. */
  readonly branchId?: string;
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
  /** An internal-project user's access token that stands in for the keys (the dashboard). */
  readonly adminAccessToken?: string;
  /** The signed-in user's access token (a JWT). */
  readonly accessToken?: string;
  /** The session's refresh token, read only by the few operations that need it. */
  readonly refreshToken?: string;
  /** The caller accepts an anonymous user as the signed-in user. */
  readonly allowAnonymousUser?: boolean;
  /** The caller accepts a restricted user (e.g. unverified email) as the signed-in user. */
  readonly allowRestrictedUser?: boolean;
  /**
   * The `Authorization` header as sent, read only by the operations an operator secret guards
   * (upstream's cron routes); request authentication ignores it.
   */
  readonly authorization?: string;
}

/** No credentials at all: public operations only. */
export const NO_CREDENTIALS: Credentials = Object.freeze({});

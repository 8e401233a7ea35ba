/** What Gatehouse learns about a provider account (upstream `OAuthUserInfo`). */
export interface ProviderUserInfo {
  /** The provider's stable id of the account (`sub`, or the numeric id as a string). */
  accountId: string;
  email: string | null;
  /** True only when the provider vouches for the email (used to merge with an existing user). */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

/** Tokens a provider's token endpoint answered. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms, or null when the provider gave no `expires_in`. */
  accessTokenExpiresAt: number | null;
  /** Validated ID Token claims (OpenID providers), else null. */
  idTokenClaims: Record<string, unknown> | null;
}

/** Reads a JSON resource of the provider with the user's access token. */
export type ProviderFetch = (url: string, accessToken: string, headers?: Record<string, string>) => Promise<unknown>;

/** Endpoint names a test may override (runtime `oauthEndpointOverrides`). */
export interface ProviderEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** The profile resource read after the token exchange (may be absent when the ID Token suffices). */
  userinfoEndpoint?: string;
  /** GitHub's and Bitbucket's separate email list. */
  emailsEndpoint?: string;
  /** OpenID providers: the issuer the ID Token must carry, and its keys. */
  issuer?: string;
  jwksUri?: string;
}

/**
 * One built-in provider as data (issue 15 §2; upstream `https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/oauth/providers/*.tsx`):
 * its endpoints, base scope, how it authenticates the client, extra authorization parameters,
 * and a small mapper from its responses to `ProviderUserInfo`.
 */
export interface BuiltInProvider {
  id: string;
  displayName: string;
  endpoints: (options: { microsoftTenantId?: string }) => ProviderEndpoints;
  /** Scopes always requested (space-separated). */
  baseScope: string;
  /** Token endpoint client authentication (RFC 6749 §2.3.1). */
  clientAuth: 'client_secret_basic' | 'client_secret_post';
  /** Extra authorization request parameters, e.g. Google's `access_type=offline`. */
  extraAuthorizationParams?: (options: { facebookConfigId?: string }) => Record<string, string>;
  /** Apple answers with `response_mode=form_post`: the callback arrives as a POST. */
  formPost?: boolean;
  /** True when the provider returns a signed ID Token that must be validated (OIDC Core §3.1.3.7). */
  openid?: boolean;
  /** When set, the scope parameter is replaced by this (Facebook Login for Business `config_id`). */
  omitScopeWhen?: (options: { facebookConfigId?: string }) => boolean;
  /** Maps the provider's answers to the account's identity. */
  userInfo(tokens: ProviderTokens, endpoints: ProviderEndpoints, get: ProviderFetch, clientId: string): Promise<ProviderUserInfo>;
}

import { API_PREFIXES } from '../api/routes.ts';

/** How a caller authenticates to an identity-provider endpoint (for the OpenAPI document). */
export type IdpEndpointAuth =
  /** Nobody: metadata, keys. */
  | 'none'
  /** The OAuth client (RFC 6749 §2.3: HTTP Basic, `client_secret_post`, `private_key_jwt`, or only `client_id` for a public client). */
  | 'client'
  /** A bearer access token of the issuer (RFC 6750). */
  | 'bearer'
  /** The user's browser (cookies of the flow). */
  | 'browser';

/** One endpoint of a project's identity provider, relative to the issuer unless `root`. */
export interface IdpEndpoint {
  method: 'GET' | 'POST';
  /** Path under the issuer (`/token`), or from the server root when `root` is set. */
  path: string;
  root?: true;
  summary: string;
  auth: IdpEndpointAuth;
  /** Media type of the request body, for POST. */
  body?: 'application/x-www-form-urlencoded' | 'application/json';
  /** Answer: JSON, a redirect (302/303) or an HTML page. */
  answer: 'json' | 'redirect' | 'html' | 'none';
  /** The answer's status on success. */
  status?: 200 | 201 | 204 | 303;
}

/**
 * Every route of a project's identity provider (docs/oauth-provider.md): `oidc-provider`'s
 * endpoints (the features server-bin/oidc/provider.ts turns on) and Gatehouse's interaction
 * pages, served under the issuer `/api/v1/projects/{project_id}/oidc` outside the operation
 * registry (their media types, client authentication and RFC error bodies are the RFCs', not the
 * Stack-shaped API's), and listed in the OpenAPI document (scripts/openapi/document.ts) with the
 * `oidc` tag.
 */
export const IDENTITY_PROVIDER_ENDPOINTS: readonly IdpEndpoint[] = [
  {
    method: 'GET',
    path: '/.well-known/openid-configuration',
    summary: 'OpenID Connect Discovery 1.0 metadata of the issuer.',
    auth: 'none',
    answer: 'json',
  },
  {
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414), issuer-relative: the same document as discovery.',
    auth: 'none',
    answer: 'json',
  },
  {
    method: 'GET',
    path: `/.well-known/oauth-authorization-server${API_PREFIXES[0]}/projects/{project_id}/oidc`,
    root: true,
    summary: 'OAuth 2.0 authorization server metadata at the RFC 8414 §3.1 location for the issuer (what MCP clients ask first).',
    auth: 'none',
    answer: 'json',
  },
  {
    method: 'GET',
    path: '/jwks',
    summary: "The issuer's public signing keys (JWK Set, RFC 7517): the project's ES256 keys.",
    auth: 'none',
    answer: 'json',
  },
  {
    method: 'GET',
    path: '/auth',
    summary:
      'Authorization endpoint (RFC 6749 §3.1, OpenID Connect Core §3.1.2): code flow with PKCE S256, `resource` (RFC 8707), `prompt`.',
    auth: 'browser',
    answer: 'redirect',
  },
  {
    method: 'POST',
    path: '/auth',
    summary: 'Authorization endpoint with its parameters form-encoded (OpenID Connect Core §3.1.2.1).',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'redirect',
  },
  {
    method: 'GET',
    path: '/auth/{uid}',
    summary: 'Resumes an authorization request after its interaction (sign-in, consent).',
    auth: 'browser',
    answer: 'redirect',
  },
  {
    method: 'GET',
    path: '/interaction/{uid}',
    summary: "Interaction of an authorization request: to the project's hosted sign-in, or the consent page.",
    auth: 'browser',
    answer: 'html',
  },
  {
    method: 'GET',
    path: '/interaction/{uid}/login',
    summary: "Return from the hosted sign-in: the hosted pages' session becomes the signed-in user.",
    auth: 'browser',
    answer: 'redirect',
  },
  {
    method: 'POST',
    path: '/interaction/{uid}/confirm',
    summary: 'Consent given: grants the requested scopes and resources.',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'redirect',
    status: 303,
  },
  {
    method: 'POST',
    path: '/interaction/{uid}/abort',
    summary: 'Consent refused: `access_denied` to the client.',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'redirect',
    status: 303,
  },
  {
    method: 'POST',
    path: '/token',
    summary:
      'Token endpoint (RFC 6749 §3.2): `authorization_code` (PKCE), `refresh_token` (rotated), `client_credentials`, device code (RFC 8628); `resource` gives an RFC 9068 JWT.',
    auth: 'client',
    body: 'application/x-www-form-urlencoded',
    answer: 'json',
  },
  {
    method: 'POST',
    path: '/token/introspection',
    summary: 'Token introspection (RFC 7662).',
    auth: 'client',
    body: 'application/x-www-form-urlencoded',
    answer: 'json',
  },
  {
    method: 'POST',
    path: '/token/revocation',
    summary: 'Token revocation (RFC 7009).',
    auth: 'client',
    body: 'application/x-www-form-urlencoded',
    answer: 'none',
  },
  {
    method: 'GET',
    path: '/me',
    summary: "UserInfo (OpenID Connect Core §5.3): the user's claims by granted scope.",
    auth: 'bearer',
    answer: 'json',
  },
  {
    method: 'POST',
    path: '/me',
    summary: 'UserInfo with a form-encoded request.',
    auth: 'bearer',
    body: 'application/x-www-form-urlencoded',
    answer: 'json',
  },
  {
    method: 'POST',
    path: '/device/auth',
    summary: 'Device authorization (RFC 8628 §3.1): a device code and a user code.',
    auth: 'client',
    body: 'application/x-www-form-urlencoded',
    answer: 'json',
  },
  {
    method: 'GET',
    path: '/device',
    summary: 'Device verification URI (RFC 8628 §3.3): where the user enters the user code.',
    auth: 'browser',
    answer: 'html',
  },
  {
    method: 'POST',
    path: '/device',
    summary: 'Device verification: the entered user code.',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'html',
  },
  {
    method: 'GET',
    path: '/device/{uid}',
    summary: 'Resumes a device authorization after its interaction.',
    auth: 'browser',
    answer: 'html',
  },
  {
    method: 'GET',
    path: '/session/end',
    summary: 'RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0).',
    auth: 'browser',
    answer: 'html',
  },
  {
    method: 'POST',
    path: '/session/end',
    summary: 'RP-initiated logout with a form-encoded request.',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'html',
  },
  {
    method: 'POST',
    path: '/session/end/confirm',
    summary: 'Logout confirmed by the user.',
    auth: 'browser',
    body: 'application/x-www-form-urlencoded',
    answer: 'redirect',
  },
  { method: 'GET', path: '/session/end/success', summary: 'Logout done (no post-logout redirect URI).', auth: 'browser', answer: 'html' },
  {
    method: 'POST',
    path: '/reg',
    summary: 'Dynamic client registration (RFC 7591), when `oidc.dynamicClientRegistration` allows it.',
    auth: 'none',
    body: 'application/json',
    answer: 'json',
    status: 201,
  },
  {
    method: 'GET',
    path: '/reg/{client_id}',
    summary: 'A dynamically registered client, read with its registration access token (RFC 7592 §2.1).',
    auth: 'bearer',
    answer: 'json',
  },
];

import {
  oauthIssuerOf,
  verifyOAuthAccessToken,
  type OAuthAccessToken,
  type OAuthIssuerOptions,
  type OAuthTokenError,
  type VerifyOAuthAccessTokenOptions,
} from './verify-oauth-token.ts';

/** Options of {@link createProtectedResource}: an API (an MCP server…) protected by a Gatehouse project's identity provider. */
export type ProtectedResourceOptions = OAuthIssuerOptions & {
  /** The resource identifier (RFC 8707 §2, RFC 9728 §1.2): the API's URL as clients call it, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Scopes every request needs, listed as `scopes_supported` and in challenges (the project's `oidc.scopes`). */
  scopes?: readonly string[];
  /** Human-readable name (`resource_name`, RFC 9728 §2). */
  resourceName?: string;
  /** `resource_documentation` (RFC 9728 §2). */
  resourceDocumentation?: string;
  /** Passed to {@link verifyOAuthAccessToken}. */
  clockToleranceSeconds?: number;
  keys?: VerifyOAuthAccessTokenOptions['keys'];
};

/** The protected resource metadata document (RFC 9728 §2), as {@link protectedResourceMetadata} builds it. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  jwks_uri: string;
  scopes_supported?: string[];
  bearer_methods_supported: string[];
  resource_signing_alg_values_supported: string[];
  resource_name?: string;
  resource_documentation?: string;
}

/** A refusal ready to send: status (RFC 6750 §3.1), `WWW-Authenticate` and a JSON body `{error, error_description}`. */
export interface BearerRefusal {
  status: 400 | 401 | 403;
  headers: { 'www-authenticate': string; 'content-type': string; 'cache-control': string };
  body: string;
  error: OAuthTokenError;
}

/** The minimal request and response of node:http (and Express, which extends them). */
interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}
interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
}

/**
 * Where a resource's metadata lives (RFC 9728 §3.1): `/.well-known/oauth-protected-resource`
 * inserted between the host and the path of the resource identifier, so
 * `https://mcp.example.com/mcp` → `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}${url.search}`;
}

/**
 * The protected resource metadata document (RFC 9728 §2) of an API protected by a Gatehouse
 * project: `resource`, `authorization_servers` (the project's issuer, whose RFC 8414 metadata
 * Gatehouse serves), `jwks_uri`, `scopes_supported`, `bearer_methods_supported` (`header` only,
 * RFC 6750 §2.1) and the optional names. MCP clients read it to find the authorization server
 * (MCP authorization spec, "Authorization Server Discovery").
 */
export function protectedResourceMetadata(options: ProtectedResourceOptions): ProtectedResourceMetadata {
  const issuer = oauthIssuerOf(options);
  return {
    resource: options.resource,
    authorization_servers: [issuer],
    jwks_uri: `${issuer}/jwks`,
    ...(options.scopes && options.scopes.length > 0 ? { scopes_supported: [...options.scopes] } : {}),
    bearer_methods_supported: ['header'],
    resource_signing_alg_values_supported: ['ES256'],
    ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    ...(options.resourceDocumentation ? { resource_documentation: options.resourceDocumentation } : {}),
  };
}

/** An RFC 9110 §5.6.4 quoted string (backslash-escaped `"` and `\`; control characters dropped). */
const quoted = (value: string) => `"${value.replace(/[\x00-\x1f\x7f]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * The `WWW-Authenticate` value of a refused request (RFC 6750 §3): `Bearer` with
 * `resource_metadata` (RFC 9728 §5.1, how an MCP client finds the metadata), and unless the
 * request had no token (§3.1: then no error code), `error`, `error_description` and `scope`
 * (the scopes needed, SEP-835 / RFC 6750 §3).
 */
export function bearerChallenge(options: { resource: string; scopes?: readonly string[] }, error?: OAuthTokenError): string {
  const params = [`resource_metadata=${quoted(protectedResourceMetadataUrl(options.resource))}`];
  if (error && !error.missing) {
    params.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  }
  const scopes = error?.scopes.length ? error.scopes : (options.scopes ?? []);
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  return `Bearer ${params.join(', ')}`;
}

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), '' when absent, null when malformed. */
function bearerToken(header: string | string[] | null | undefined): string | null {
  if (header === undefined || header === null || header === '') return '';
  if (Array.isArray(header)) return header.length === 1 ? bearerToken(header[0]) : null;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match ? match[1]! : null;
}

/** A protected resource: its metadata, and request checks for any server. See {@link createProtectedResource}. */
export interface ProtectedResource {
  /** The metadata document (RFC 9728 §2). */
  readonly metadata: ProtectedResourceMetadata;
  /** Its URL (RFC 9728 §3.1) and that URL's path, where the API must answer it. */
  readonly metadataUrl: string;
  readonly metadataPath: string;
  /**
   * Checks a request's `Authorization` header value: the verified token, or the refusal to send
   * (status, `WWW-Authenticate`, body). Works with any server (fetch handlers, Hono, Koa…).
   */
  authenticate(
    authorization: string | null | undefined,
  ): Promise<{ status: 'ok'; data: OAuthAccessToken } | { status: 'error'; refusal: BearerRefusal }>;
  /**
   * node:http / Express: answers `GET` (and `HEAD`, `OPTIONS`) of the metadata path with the
   * document (CORS-open, as browser-based MCP clients fetch it cross-origin); true when it answered.
   */
  serveMetadata(req: NodeRequestLike, res: NodeResponseLike): boolean;
  /**
   * node:http / Express: the request's verified token, or null after answering the refusal
   * (401 with the challenge, 403 for a missing scope, 400 for a malformed header).
   */
  authorize(req: NodeRequestLike, res: NodeResponseLike): Promise<OAuthAccessToken | null>;
}

/**
 * Everything an API (an MCP server, say) needs to accept a Gatehouse project's OAuth tokens:
 * its protected resource metadata (RFC 9728) served at the well-known path, and per request the
 * token verified with {@link verifyOAuthAccessToken} (audience = `resource`, `scopes` required)
 * or refused with the `WWW-Authenticate` challenge that sends an MCP client to discovery
 * (MCP authorization spec, "Authorization Server Location").
 *
 * ```ts
 * const mcp = createProtectedResource({ issuer, resource: 'https://mcp.example.com/mcp', scopes: ['mcp:tools'] });
 * http.createServer(async (req, res) => {
 *   if (mcp.serveMetadata(req, res)) return;
 *   const auth = await mcp.authorize(req, res);
 *   if (!auth) return;
 *   await transport.handleRequest(Object.assign(req, { auth }), res); // @modelcontextprotocol/sdk
 * });
 * ```
 */
export function createProtectedResource(options: ProtectedResourceOptions): ProtectedResource {
  const metadata = protectedResourceMetadata(options);
  const metadataUrl = protectedResourceMetadataUrl(options.resource);
  const metadataPath = new URL(metadataUrl).pathname;
  const body = JSON.stringify(metadata);
  const refusal = (error: OAuthTokenError): BearerRefusal => ({
    status: error.code === 'invalid_request' ? 400 : error.code === 'insufficient_scope' ? 403 : 401,
    headers: {
      'www-authenticate': bearerChallenge(options, error),
      'content-type': 'application/json',
      'cache-control': 'no-store',
    },
    body: JSON.stringify(
      error.missing
        ? { error: 'invalid_token', error_description: error.description }
        : { error: error.code, error_description: error.description },
    ),
    error,
  });
  const check = async (authorization: string | string[] | null | undefined) => {
    const scopes = options.scopes ?? [];
    const token = bearerToken(authorization);
    if (token === null)
      return {
        status: 'error' as const,
        refusal: refusal({
          code: 'invalid_request',
          description: 'The Authorization header must be "Bearer <token>".',
          scopes: [...scopes],
        }),
      };
    const result = await verifyOAuthAccessToken(token, options);
    return result.status === 'ok' ? result : { status: 'error' as const, refusal: refusal(result.error) };
  };
  const authenticate: ProtectedResource['authenticate'] = (authorization) => check(authorization);
  return {
    metadata,
    metadataUrl,
    metadataPath,
    authenticate,
    serveMetadata(req, res) {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== metadataPath) return false;
      const method = req.method ?? 'GET';
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-headers': '*',
        'access-control-allow-methods': 'GET, OPTIONS',
      };
      if (method === 'OPTIONS') res.writeHead(204, cors);
      else if (method === 'GET' || method === 'HEAD')
        res.writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'public, max-age=300' });
      else res.writeHead(405, { allow: 'GET, HEAD, OPTIONS' });
      res.end(method === 'GET' ? body : undefined);
      return true;
    },
    async authorize(req, res) {
      const result = await check(req.headers.authorization);
      if (result.status === 'ok') return result.data;
      res.writeHead(result.refusal.status, result.refusal.headers);
      res.end(result.refusal.body);
      return null;
    },
  };
}

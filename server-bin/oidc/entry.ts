import type { IncomingMessage, ServerResponse } from 'node:http';
import { inject, type Response } from 'light-my-request';
import { LRUCache } from 'lru-cache';
import type { Runtime } from '../../core/runtime.ts';
import { identityProviderProject, oidcIssuer, withTokenWrites, type Project } from '../../core/index.ts';
import { buildProvider, loadProviderClass, providerFingerprint, type ProviderClass } from './provider.ts';
import { handleInteraction, isInteractionPath } from './interaction.ts';
import { DEVICE_POLL_INTERVAL_SECONDS, throttleProviderRequest } from './provider-throttle.ts';
import { deviceVerificationUri } from './device-verification.ts';

/** An identity-provider request recognised by {@link oidcTarget}. */
interface OidcTarget {
  projectId: string;
  /** The path under the issuer (`/token`, `/.well-known/openid-configuration`, …). */
  rest: string;
}

const ISSUER_PATH = /^\/api\/(?:v1|latest)\/projects\/([^/]+)\/oidc(\/.*)?$/i;
const RFC8414_PATH = /^\/\.well-known\/oauth-authorization-server\/api\/v1\/projects\/([^/]+)\/oidc$/;
const DISCOVERY = '/.well-known/openid-configuration';

/**
 * Whether a path (mount path removed) is the identity provider's: under an issuer
 * (`/api/v1/projects/<id>/oidc/…`), or the RFC 8414 §3.1 metadata location for one
 * (`/.well-known/oauth-authorization-server/api/v1/projects/<id>/oidc`). Both issuer-relative
 * metadata names (`openid-configuration`, `oauth-authorization-server`) answer the same document.
 */
export function oidcTarget(pathname: string): OidcTarget | null {
  const inIssuer = ISSUER_PATH.exec(pathname);
  if (inIssuer) {
    const rest = inIssuer[2] ?? '/';
    return { projectId: decodeSegment(inIssuer[1]!), rest: rest === '/.well-known/oauth-authorization-server' ? DISCOVERY : rest };
  }
  const metadata = RFC8414_PATH.exec(pathname);
  return metadata ? { projectId: decodeSegment(metadata[1]!), rest: DISCOVERY } : null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Headers never passed to the provider: it sees the issuer's host and scheme, and the peer as the one forwarded address. */
const DROPPED_HEADERS = new Set(['host', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded', 'content-length']);

/**
 * The identity provider's entry (docs/oauth-provider.md): answers a request for a project whose
 * `oidc.enabled` is on, through that project's `oidc-provider` instance (a Koa application),
 * handed the request with light-my-request so every host (node:http, the Koa mount, the fetch
 * handler, dispatch) reaches it through the one answer (../api/answer.ts). Returns null for a
 * path that is not the provider's, an unknown project, or a project with the provider off (the
 * API's plain 404 then answers).
 *
 * One provider per project is cached (LRU, 200 projects), rebuilt when the project's `oidc.*`
 * settings or signing keys change (provider.ts providerFingerprint); the project is read through
 * the request cache (core/oauth-provider/host.ts identityProviderProject), so a change made in
 * this process is seen at once and one made by another process within a second.
 */
/** The parts of an API request (../api/answer.ts ApiRequest) the provider reads. */
export interface OidcRequest {
  method: string;
  pathname: string;
  search: string;
  headers: Readonly<Record<string, string | undefined>>;
  readBody(): Promise<Buffer>;
  peerAddress: string | undefined;
  /** The client address for throttling (the trusted-proxy rule applied, ../api/client-address.ts); the peer when absent. */
  clientAddress?: string | null;
}

/** The provider's answer: status, headers (lowercase, no length), body bytes, and its cookies one per `Set-Cookie`. */
export interface OidcAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  cookies?: string[];
}

export function createOidcEntry(runtime: Runtime): (request: OidcRequest) => Promise<OidcAnswer | null> {
  const providers = new LRUCache<
    string,
    { fingerprint: string; provider: any; callback: (req: IncomingMessage, res: ServerResponse) => void }
  >({
    max: 200,
  });
  const base = new URL(runtime.baseUrl);

  const providerFor = (project: Project, Provider: ProviderClass) => {
    const fingerprint = providerFingerprint(runtime, project);
    const cached = providers.get(project.id);
    if (cached && cached.fingerprint === fingerprint) return cached;
    const provider = buildProvider(runtime, project, Provider);
    const built = { fingerprint, provider, callback: provider.callback() };
    providers.set(project.id, built);
    return built;
  };

  return async (request) => {
    const target = oidcTarget(request.pathname);
    if (!target) return null;
    const { projectId } = target;
    const project = await identityProviderProject(runtime, projectId);
    if (!project) return null;
    const { provider, callback } = providerFor(project, await loadProviderClass());

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !DROPPED_HEADERS.has(name)) headers[name] = value;
    headers.host = base.host;
    headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    headers['x-forwarded-for'] = request.peerAddress ?? '127.0.0.1';
    let requestBody: Buffer | undefined;
    try {
      requestBody = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.readBody();
    } catch {
      // Past the body limit (../api/body.ts MAX_BODY_BYTES) or a broken stream: the client's fault (RFC 6749 §5.2).
      return jsonAnswer(400, { error: 'invalid_request', error_description: 'The request body could not be read.' });
    }
    const refused = await throttleProviderRequest(runtime, project, {
      method: request.method,
      rest: target.rest,
      body: requestBody,
      clientAddress: request.clientAddress ?? request.peerAddress ?? null,
    });
    if (refused) return refused;
    const issuer = oidcIssuer(runtime.baseUrl, projectId);
    const issuerPath = new URL(issuer).pathname;
    const interaction = isInteractionPath(target.rest);
    // The callback form starts the injection at once, in the caller's async context (withTokenWrites
    // finds its batch through it); awaiting inject's thenable would start it where that context is lost.
    const handle = () =>
      new Promise<Response>((resolve, reject) =>
        inject(
          (req, out) => {
            // oidc-provider builds its URLs from the mount path it finds here (helpers/oidc_context.js urlFor).
            (req as IncomingMessage & { baseUrl?: string }).baseUrl = issuerPath;
            if (interaction)
              handleInteraction(runtime, project, provider, issuer, req as IncomingMessage, out as ServerResponse, target.rest).catch(
                (error: unknown) => {
                  runtime.log.error({ err: (error as Error)?.stack ?? String(error) }, 'identity provider interaction failed');
                  if (!out.headersSent) out.writeHead(500, { 'content-type': 'application/json' });
                  out.end(JSON.stringify({ error: 'server_error' }));
                },
              );
            else callback(req as IncomingMessage, out as ServerResponse);
          },
          {
            method: request.method as 'GET',
            url: `${target.rest}${request.search ? `?${request.search}` : ''}`,
            headers,
            ...(requestBody && requestBody.length > 0 ? { payload: requestBody } : {}),
            remoteAddress: request.peerAddress ?? '127.0.0.1',
          },
          (error, response) => (error || !response ? reject(error) : resolve(response)),
        ),
      );
    // A token request's token writes are written together once the provider answered (core/oauth-provider/token-writes.ts).
    let res: Response;
    let rotationLost = false;
    if (request.method === 'POST' && target.rest === '/token') {
      try {
        ({ result: res, refused: rotationLost } = await withTokenWrites(runtime, handle));
      } catch (error) {
        // A database that is busy or gone is a 503 the client may retry (as every API route answers it,
        // server-bin/api/render.ts); nothing was answered, so no token was handed out.
        if (runtime.storage.isUnavailable(error)) {
          runtime.log.warn({ err: (error as Error)?.message ?? String(error) }, 'identity provider token writes: database unavailable');
          return jsonAnswer(503, {
            error: 'temporarily_unavailable',
            error_description: 'The database is temporarily unavailable. Please try again in a moment.',
          });
        }
        runtime.log.error({ err: (error as Error)?.stack ?? String(error) }, 'identity provider token writes failed');
        return jsonAnswer(500, { error: 'server_error', error_description: 'oops! something went wrong' });
      }
    } else res = await handle();
    const out: Record<string, string> = {};
    let cookies: string[] | undefined;
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection' || name === 'date')
        continue;
      if (name === 'set-cookie') cookies = Array.isArray(value) ? value.map(String) : [String(value)];
      else out[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    // The refresh token was rotated by a concurrent request first: a reuse (the grant is revoked), as the provider answers one.
    if (rotationLost) return jsonAnswer(400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
    const body =
      target.rest === '/device/auth' && res.statusCode === 200
        ? deviceAuthorizationBody(runtime.baseUrl, projectId, res.rawPayload)
        : rfcErrorBody(res.statusCode, out['content-type'], res.rawPayload);
    return { status: res.statusCode, headers: out, body, ...(cookies ? { cookies } : {}) };
  };
}

/** An RFC 6749 §5.2 JSON answer, not cached, as the provider gives its token endpoint's errors. */
function jsonAnswer(status: number, body: { error: string; error_description: string }): OidcAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/**
 * The device authorization answer (RFC 8628 §3.2) as Gatehouse gives it: the verification URI is
 * the project's hosted page (`/projects/<id>/handler/device`, which leads to the provider's code
 * entry), shorter to type than the issuer's, and the polling `interval` is stated.
 */
function deviceAuthorizationBody(baseUrl: string, projectId: string, body: Buffer): Buffer {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return body;
  }
  const verification = deviceVerificationUri(baseUrl, projectId);
  const userCode = typeof parsed.user_code === 'string' ? parsed.user_code : '';
  return Buffer.from(
    JSON.stringify({
      ...parsed,
      verification_uri: verification,
      verification_uri_complete: `${verification}?${new URLSearchParams({ user_code: userCode })}`,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    }),
  );
}

/**
 * oidc-provider answers a grant type the client was not registered for with `invalid_request`;
 * RFC 6749 §5.2 names that `unauthorized_client` (same status, 400). Other answers pass as they are.
 */
function rfcErrorBody(status: number, type: string | undefined, body: Buffer): Buffer {
  if (status !== 400 || !type?.startsWith('application/json') || body.length > 2000) return body;
  const text = body.toString('utf8');
  if (!text.includes('requested grant type is not allowed for this client')) return body;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (parsed.error !== 'invalid_request') return body;
    return Buffer.from(JSON.stringify({ ...parsed, error: 'unauthorized_client' }));
  } catch {
    return body;
  }
}

import * as v from 'valibot';
import { reply, type OperationContext, type RawReply } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { isUuid } from '../lib/random.ts';
import { findProject } from '../projects/index.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { providerCallbackUrl } from './authorize-oauth.ts';
import { assertDevProviderAvailable, DEV_IDENTITIES } from './providers/dev-provider.ts';

export const CODE_KEY_INFO = 'gatehouse dev oidc codes v1';
export const CODE_TTL_MS = 60_000;
export const TOKEN_TTL_S = 3600;

export const field = (max = 4096) => v.pipe(v.string(), v.maxLength(max));
export const AuthorizeEntries = {
  client_id: field(256),
  redirect_uri: field(),
  response_type: v.picklist(['code']),
  scope: v.optional(field(1024)),
  state: field(1024),
  code_challenge: v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a base64url S256 challenge')),
  code_challenge_method: v.picklist(['S256']),
  nonce: v.optional(field(1024)),
};

/**
 * Checks that a client id (`<project id>:<provider id>`) names a project's shared provider that
 * may be served (never in production mode, see assertDevProviderAvailable) and that
 * `redirectUri` is its Gatehouse callback.
 */
export async function checkClient(ctx: OperationContext, clientId: string, redirectUri: string): Promise<void> {
  assertDevProviderAvailable(ctx.runtime, null);
  const colon = clientId.lastIndexOf(':');
  const projectId = clientId.slice(0, colon);
  const providerId = clientId.slice(colon + 1);
  const project = colon > 0 && (projectId === INTERNAL_PROJECT_ID || isUuid(projectId)) ? await findProject(ctx.db, projectId) : null;
  const config = project?.config.oauthProviders.find((p) => p.id === providerId && p.enabled && p.type === 'shared');
  if (!project || !config) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId });
  assertDevProviderAvailable(ctx.runtime, project, providerId);
  if (redirectUri !== providerCallbackUrl(ctx.runtime, providerId)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function page(query: Record<string, string | undefined>): RawReply {
  const hidden = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('');
  const buttons = DEV_IDENTITIES.map(
    (id) =>
      `<form method="post" action="authorize"><input type="hidden" name="email" value="${escapeHtml(id.email)}"><input type="hidden" name="name" value="${escapeHtml(id.name)}">${hidden}<button type="submit">Continue as ${escapeHtml(id.name)} &lt;${escapeHtml(id.email)}&gt;</button></form>`,
  ).join('');
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Gatehouse development sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}form{margin:.5rem 0}button{width:100%;padding:.7rem;font-size:1rem;border:1px solid #888;border-radius:6px;background:#fff;cursor:pointer}button:focus{outline:3px solid #2563eb}label{display:block;margin-top:1.5rem}input[type=email]{width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}p{color:#444}</style></head>
<body><main><h1>Development sign-in</h1><p>This is Gatehouse's built-in test provider. It is only available outside production mode. Pick a test identity:</p>${buttons}
<form method="post" action="authorize">${hidden}<label for="email">Or any email</label><input id="email" type="email" name="email" required placeholder="someone@example.com"><button type="submit">Continue with this email</button></form></main></body></html>`;
  return reply.html(body, {
    policy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'",
  });
}

import type Koa from 'koa';
import type { Core, Project, ServerCapabilities } from '../core/index.ts';
import { INTERNAL_PROJECT_ID, oidcIssuer, serverCapabilities, toClientProject } from '../core/index.ts';
import { sendPage, serveBundle } from './page-shell.ts';
import { renderHostedPage } from './hosted-render.ts';
import { httpOnlyRefreshCookieName } from '../core/protocol/cookie-bridge.ts';
import { HOSTED_ASSETS_PATH, loadHostedBuild, loadHostedChunk } from './hosted-assets.ts';

/** URL of the hosted pages' script. */
export const HOSTED_SCRIPT_PATH = `${HOSTED_ASSETS_PATH}handler.js`;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Which project and handler base a path belongs to, or null when it is not a hosted page. */
export function matchHostedPath(path: string): { projectId: string; handlerPath: string } | null {
  if (path === '/handler' || path.startsWith('/handler/')) return { projectId: INTERNAL_PROJECT_ID, handlerPath: '/handler' };
  const m = /^\/projects\/([^/]+)\/handler(\/.*)?$/.exec(path);
  if (m && UUID_RE.test(m[1]!)) return { projectId: m[1]!.toLowerCase(), handlerPath: `/projects/${m[1]!.toLowerCase()}/handler` };
  return null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The inline configuration of a hosted page (`window.__GATEHOUSE__`, ui/hosted/config.ts
 * HostedConfig). `ssoAvailable`: whether the project has SSO connections (see
 * {@link projectSsoAvailable}), null when unknown (the page then asks).
 */
export function hostedPageConfig(
  project: Project,
  serverPath: string,
  handlerPath: string,
  capabilities: ServerCapabilities,
  ssoAvailable: boolean | null = null,
) {
  const trustedOrigins = project.config.domains.map((d) => originOf(d.domain)).filter((o): o is string => o !== null);
  return {
    projectId: project.id,
    serverPath,
    handlerPath,
    project: {
      displayName: project.displayName,
      logoUrl: project.logoUrl,
      accentLight: project.config.branding.accentLight,
      accentDark: project.config.branding.accentDark,
      termsUrl: project.config.branding.termsUrl,
      privacyUrl: project.config.branding.privacyUrl,
    },
    trustedOrigins,
    // A project without a trusted domain has no app to go back to: its end users stay on its own
    // hosted pages (account settings), never on `/`, which is the Gatehouse dashboard.
    home: project.id === INTERNAL_PROJECT_ID ? '/' : (trustedOrigins[0] ?? null),
    capabilities,
    // The public settings `GET /projects/current` answers, so the first render needs no request
    // for them (the sign-in form is usable one round trip sooner).
    clientProject: toClientProject(project),
    // Home-realm discovery's first question, answered here: the sign-in page renders its form
    // without waiting for `GET /auth/sso/discovery`.
    ...(ssoAvailable === null ? {} : { ssoAvailable }),
  };
}

/**
 * Whether `projectId` has SSO connections, as `GET /auth/sso/discovery` answers the hosted page
 * (client access, no address), or null when the server cannot say (no SSO operation, or the call
 * is refused): the page then asks itself, as before.
 */
export async function projectSsoAvailable(core: Core, projectId: string): Promise<boolean | null> {
  try {
    const answer = await core.invoke<{ sso_available: boolean }>('sso.discover', { accessType: 'client', projectId }, { query: {} });
    return answer.sso_available;
  } catch {
    return null;
  }
}

/**
 * Koa middleware serving the hosted handler pages (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/components-page/stack-handler.tsx): `/handler/*` for the
 * internal project (the dashboard's sign-in) and `/projects/{id}/handler/*` for other projects,
 * `…/handler/device` (the identity provider's RFC 8628 code entry, when the project turned it on),
 * plus the bundle at `/handler/handler.js` and its chunks at `/handler/chunks/*` (./hosted-assets.ts; the single executable serves the same files from its embedded `dist/ui/handler/` folder). Unknown projects get a plain 404 page.
 */
export function hostedPagesMiddleware(core: Core): Koa.Middleware {
  const capabilities = serverCapabilities(core.operations);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === HOSTED_SCRIPT_PATH) {
      serveBundle(ctx, (await loadHostedBuild()).entry);
      return;
    }
    if (ctx.path.startsWith(`${HOSTED_ASSETS_PATH}chunks/`)) {
      const chunk = await loadHostedChunk(ctx.path.slice(HOSTED_ASSETS_PATH.length));
      if (!chunk) return next();
      // Content-hashed names: a new build has new names, so a chunk never changes.
      serveBundle(ctx, chunk, true);
      return;
    }
    const match = matchHostedPath(ctx.path);
    if (!match) return next();
    const project = await core.findProject(match.projectId);
    if (!project) {
      ctx.set('cache-control', 'no-store');
      ctx.set('x-frame-options', 'DENY');
      ctx.set('x-content-type-options', 'nosniff');
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>This project does not exist.</p></html>';
      return;
    }
    // RFC 8628's verification URI (oidc/device-verification.ts): the provider's code entry, under the issuer.
    if (ctx.path === `${match.handlerPath}/device` && project.config.oidc.enabled) {
      ctx.set('cache-control', 'no-store');
      ctx.status = 303;
      ctx.redirect(`${oidcIssuer(core.runtime.baseUrl, project.id)}/device${ctx.search}`);
      return;
    }
    // Without a build (`npm run build:ui` not run) the page still renders; its script then fails to load.
    const build = await loadHostedBuild().catch(() => null);
    const config = hostedPageConfig(project, ctx.path, match.handlerPath, capabilities, await projectSsoAvailable(core, project.id));
    // Sign-in and sign-up arrive rendered, so their form is usable before the bundle has run (issue 28).
    // Not for a visitor with a session (a refresh cookie): what they see (signed in already, a
    // hand-off) only the page's script knows, and a form that then vanishes would mislead.
    const session =
      ctx.cookies.get(`stack-refresh-${project.id}`) !== undefined || ctx.cookies.get(httpOnlyRefreshCookieName(project.id)) !== undefined;
    const markup = session ? null : await renderHostedPage(config, ctx.search, ctx.get('accept-language'));
    sendPage(ctx, {
      title: project.displayName,
      style: 'html,body{margin:0}',
      globalName: '__GATEHOUSE__',
      config,
      serverPath: ctx.path,
      scriptPath: HOSTED_SCRIPT_PATH,
      hash: build?.entry.hash ?? '0',
      preload: build?.preload.map((chunk) => HOSTED_ASSETS_PATH + chunk) ?? [],
      noscript: 'This page needs JavaScript.',
      ...(markup ? { markup } : {}),
    });
  };
}

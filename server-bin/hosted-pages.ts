import { createHash, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Core } from '../core/index.ts';
import { INTERNAL_PROJECT_ID } from '../core/index.ts';
import { findProject, type Project } from '../core/projects/index.ts';

/** URL of the hosted pages' script. */
export const HOSTED_SCRIPT_PATH = '/handler/handler.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Bundle { code: string; gzipped: Buffer; hash: string }
let bundlePromise: Promise<Bundle> | null = null;

/**
 * The prebuilt bundle `dist/ui/handler/handler.js` (from `npm run build:ui`); when it is missing, it is
 * built in memory with esbuild once (development checkouts without a build step).
 */
export function loadHostedBundle(): Promise<Bundle> {
  bundlePromise ??= (async () => {
    let code: string;
    try {
      code = await readFile(join(ROOT, 'dist/ui/handler/handler.js'), 'utf8');
    } catch {
      const { build } = await import('esbuild');
      const { hostedBuildOptions } = await import(join(ROOT, 'scripts/build-ui.mjs')) as { hostedBuildOptions: (root: string) => Record<string, unknown> };
      const result = await build({ ...hostedBuildOptions(ROOT), write: false } as Parameters<typeof build>[0]);
      code = result.outputFiles![0]!.text;
    }
    return { code, gzipped: gzipSync(code, { level: 9 }), hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
  })();
  bundlePromise.catch(() => { bundlePromise = null; });
  return bundlePromise;
}

/** Which project and handler base a path belongs to, or null when it is not a hosted page. */
export function matchHostedPath(path: string): { projectId: string; handlerPath: string } | null {
  if (path === '/handler' || path.startsWith('/handler/')) return { projectId: INTERNAL_PROJECT_ID, handlerPath: '/handler' };
  const m = /^\/projects\/([^/]+)\/handler(\/.*)?$/.exec(path);
  if (m && UUID_RE.test(m[1]!)) return { projectId: m[1]!.toLowerCase(), handlerPath: `/projects/${m[1]!.toLowerCase()}/handler` };
  return null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const inlineJson = (o: unknown) => JSON.stringify(o).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function originOf(url: string): string | null {
  try { return new URL(url).origin; } catch { return null; }
}

/**
 * The Content-Security-Policy of a hosted page: scripts only through the per-response nonce (the
 * loader's script then loads the bundle: 'strict-dynamic'), API calls to this origin, images from
 * anywhere over HTTPS or data: (project logos), no framing, plugins or base-URL changes.
 */
export function hostedPageCsp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The HTML shell of a hosted page: inline config, then a loader that respects any mount prefix. */
export function hostedPageHtml(project: Project, serverPath: string, handlerPath: string, hash: string, nonce: string): string {
  const trustedOrigins = project.config.domains.map((d) => originOf(d.domain)).filter((o): o is string => o !== null);
  const config = {
    projectId: project.id,
    serverPath,
    handlerPath,
    project: { displayName: project.displayName, logoUrl: project.logoUrl },
    trustedOrigins,
    home: project.id === INTERNAL_PROJECT_ID ? '/' : trustedOrigins[0] ?? '/',
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(project.displayName)}</title>
<style>html,body{margin:0}</style>
<script nonce="${nonce}">window.__GATEHOUSE__=${inlineJson(config)};</script>
<script nonce="${nonce}">(function(){var p=location.pathname,s=${inlineJson(serverPath)},pre=p.slice(-s.length)===s?p.slice(0,p.length-s.length):"";var e=document.createElement("script");e.type="module";e.src=pre+${inlineJson(`${HOSTED_SCRIPT_PATH}?v=${hash}`)};document.head.appendChild(e);})();</script>
</head>
<body>
<div id="root"><noscript>This page needs JavaScript.</noscript></div>
</body>
</html>`;
}

/**
 * Koa middleware serving the hosted handler pages (product-spec §2): `/handler/*` for the
 * internal project (the dashboard's sign-in) and `/projects/{id}/handler/*` for other projects,
 * plus the bundle at `/handler/handler.js` (the single executable serves the same file from its embedded `dist/ui/handler/` folder). Unknown projects get a plain 404 page.
 */
export function hostedPagesMiddleware(core: Core): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === HOSTED_SCRIPT_PATH) {
      const bundle = await loadHostedBundle();
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('cache-control', ctx.query.v === bundle.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.vary('accept-encoding');
      if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        ctx.set('content-encoding', 'gzip');
        ctx.body = bundle.gzipped;
      } else {
        ctx.body = bundle.code;
      }
      return;
    }
    const match = matchHostedPath(ctx.path);
    if (!match) return next();
    const project = await findProject(core.runtime.db, match.projectId);
    ctx.set('cache-control', 'no-store');
    ctx.set('x-frame-options', 'DENY');
    ctx.set('x-content-type-options', 'nosniff');
    if (!project) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found</title><p>This project does not exist.</p></html>';
      return;
    }
    // Inside the single executable the bundle is an embedded static file, not on disk: the page
    // still renders and the static layer serves the script.
    const hash = await loadHostedBundle().then((b) => b.hash, () => '0');
    const nonce = randomBytes(16).toString('base64');
    ctx.set('content-security-policy', hostedPageCsp(nonce));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = hostedPageHtml(project, ctx.path, match.handlerPath, hash, nonce);
  };
}

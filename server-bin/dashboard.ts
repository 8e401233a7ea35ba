import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Core } from '../core/index.ts';
import { dashboardSignUpState, type DashboardSignUpState } from '../core/dashboard-signup/index.ts';

/** URL of the dashboard's script (the single executable serves it from `dist/ui/dashboard/`). */
export const DASHBOARD_SCRIPT_PATH = '/dashboard-assets/dashboard.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Client routes of the dashboard; `/projects/{id}/handler/*` stays with the hosted pages. */
const ROUTE_RE = new RegExp(`^(?:/|/sign-in|/sign-up|/team|/projects|/projects/${UUID}(?:/(?!handler(?:/|$))[A-Za-z0-9/_-]*)?)/?$`, 'i');

interface Bundle { code: string; hash: string }
let bundlePromise: Promise<Bundle> | null = null;

/**
 * The prebuilt bundle `dist/ui/dashboard/dashboard-assets/dashboard.js` (`npm run build:ui`);
 * when it is missing it is built in memory with esbuild once (checkouts without a build step).
 */
export function loadDashboardBundle(): Promise<Bundle> {
  bundlePromise ??= (async () => {
    let code: string;
    try {
      code = await readFile(join(ROOT, 'dist/ui/dashboard/dashboard-assets/dashboard.js'), 'utf8');
    } catch {
      const { build } = await import('esbuild');
      const { dashboardBuildOptions } = await import(join(ROOT, 'ui/dashboard/build.mjs')) as { dashboardBuildOptions: (root: string) => Record<string, unknown> };
      const result = await build({ ...dashboardBuildOptions(ROOT), write: false } as Parameters<typeof build>[0]);
      code = result.outputFiles![0]!.text;
    }
    return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
  })();
  bundlePromise.catch(() => { bundlePromise = null; });
  return bundlePromise;
}

/** Whether a path is one of the dashboard's client routes (served the HTML shell). */
export function isDashboardPath(path: string): boolean {
  return ROUTE_RE.test(path);
}

const inlineJson = (o: unknown) => JSON.stringify(o).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The inline configuration of the dashboard page (`window.__GATEHOUSE_DASHBOARD__`). */
export interface DashboardConfig extends DashboardSignUpState {
  /** The path the server saw; the difference to `location.pathname` is the mount prefix. */
  serverPath: string;
}

/**
 * The dashboard's Content-Security-Policy: scripts only through the per-response nonce (the
 * loader then adds the bundle: 'strict-dynamic'), API calls to this origin, images over HTTPS or
 * data:, no framing of the dashboard, plugins or base-URL changes. Email previews are sandboxed
 * `srcdoc` frames, which inherit this policy.
 */
export function dashboardCsp(nonce: string): string {
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

/** The dashboard's HTML shell: inline config, then a loader that respects any mount prefix. */
export function dashboardHtml(config: DashboardConfig, hash: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>Gatehouse dashboard</title>
<style>html,body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}</style>
<script nonce="${nonce}">window.__GATEHOUSE_DASHBOARD__=${inlineJson(config)};</script>
<script nonce="${nonce}">(function(){var p=location.pathname,s=${inlineJson(config.serverPath)},pre=p.slice(-s.length)===s?p.slice(0,p.length-s.length):"";var e=document.createElement("script");e.type="module";e.src=pre+${inlineJson(`${DASHBOARD_SCRIPT_PATH}?v=${hash}`)};document.head.appendChild(e);})();</script>
</head>
<body>
<div id="root"><noscript>The Gatehouse dashboard needs JavaScript.</noscript></div>
</body>
</html>`;
}

/**
 * Koa middleware serving the developer dashboard (issue 7) at `/`: the HTML shell on its client
 * routes (`/`, `/sign-in`, `/sign-up`, `/team`, `/projects`, `/projects/{id}/…` except the hosted
 * `/projects/{id}/handler/*`) with the first-run state inline, and the bundle at
 * `/dashboard-assets/dashboard.js`. Mount it after the API routes and the hosted pages.
 */
export function dashboardMiddleware(core: Core): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === DASHBOARD_SCRIPT_PATH) {
      const bundle = await loadDashboardBundle();
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('cache-control', ctx.query.v === bundle.hash ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.body = bundle.code;
      return;
    }
    if (!isDashboardPath(ctx.path)) return next();
    const state = await dashboardSignUpState(core.runtime.db);
    // Inside the single executable the bundle is an embedded static file, not on disk.
    const hash = await loadDashboardBundle().then((b) => b.hash, () => '0');
    ctx.set('cache-control', 'no-store');
    ctx.set('x-frame-options', 'DENY');
    ctx.set('x-content-type-options', 'nosniff');
    const nonce = randomBytes(16).toString('base64');
    ctx.set('content-security-policy', dashboardCsp(nonce));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = dashboardHtml({ ...state, serverPath: ctx.path }, hash, nonce);
  };
}

import type Koa from 'koa';
import { serverCapabilities, type Core, type DashboardSignUpState, type ServerCapabilities } from '../core/index.ts';
import { bundleLoader, sendPage, serveBundle } from './page-shell.ts';

/** URL of the dashboard's script (the single executable serves it from `dist/ui/dashboard/`). */
export const DASHBOARD_SCRIPT_PATH = '/dashboard-assets/dashboard.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Client routes of the dashboard; `/projects/{id}/handler/*` stays with the hosted pages. */
const ROUTE_RE = new RegExp(
  `^(?:/|/sign-in|/sign-up|/team|/server-settings|/api-reference|/projects|/projects/${UUID}(?:/(?!handler(?:/|$))[A-Za-z0-9/_-]*)?)/?$`,
  'i',
);

/** The prebuilt bundle `dist/ui/dashboard/dashboard-assets/dashboard.js` (`npm run build:ui`). */
export const loadDashboardBundle = bundleLoader('dist/ui/dashboard/dashboard-assets/dashboard.js');

/** Whether a path is one of the dashboard's client routes (served the HTML shell). */
export function isDashboardPath(path: string): boolean {
  return ROUTE_RE.test(path);
}

/** The inline configuration of the dashboard page (`window.__GATEHOUSE_DASHBOARD__`). */
export interface DashboardConfig extends DashboardSignUpState {
  /** The path the server saw; the difference to `location.pathname` is the mount prefix. */
  serverPath: string;
  /** What this server can do (the passkey switch and OAuth providers are offered only when it can). */
  capabilities: ServerCapabilities;
}

/**
 * Koa middleware serving the developer dashboard at `/`: the HTML shell on its client
 * routes (`/`, `/sign-in`, `/sign-up`, `/team`, `/server-settings`, `/projects`, `/projects/{id}/…` except the hosted
 * `/projects/{id}/handler/*`) with the first-run state inline, and the bundle at
 * `/dashboard-assets/dashboard.js`. Mount it after the API routes and the hosted pages.
 */
export function dashboardMiddleware(core: Core): Koa.Middleware {
  const capabilities = serverCapabilities(core.operations);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === DASHBOARD_SCRIPT_PATH) {
      serveBundle(ctx, await loadDashboardBundle());
      return;
    }
    if (!isDashboardPath(ctx.path)) return next();
    const state = await core.dashboardSignUpState();
    // Inside the single executable the bundle is an embedded static file, not on disk.
    const hash = await loadDashboardBundle().then(
      (b) => b.hash,
      () => '0',
    );
    const config: DashboardConfig = { ...state, serverPath: ctx.path, capabilities };
    sendPage(ctx, {
      title: 'Gatehouse dashboard',
      style: 'html,body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
      globalName: '__GATEHOUSE_DASHBOARD__',
      config,
      serverPath: ctx.path,
      scriptPath: DASHBOARD_SCRIPT_PATH,
      hash,
      noscript: 'The Gatehouse dashboard needs JavaScript.',
    });
  };
}

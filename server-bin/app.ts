import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Core } from '../core/index.ts';
import { errorResponseFor, executeForHttp } from './http/execute.ts';
import { corsHeaders, writeResponse } from './http/respond.ts';
import { API_PREFIXES, NOT_FOUND_TEXT, createApiRoutes, type ApiRoutes } from './protocol/routes.ts';
import { securityHeaders } from './http/security-headers.ts';
import { responsePrefixes } from './http/generation.ts';
import { hostedPagesMiddleware } from './hosted-pages.ts';
import { dashboardMiddleware } from './dashboard.ts';
import { serveFavicon } from './page-shell.ts';
import { imagesMiddleware } from './images.ts';
import { cookieBridge } from './http/cookie-bridge.ts';
import { openApiMiddleware } from './openapi.ts';

export { API_PREFIXES };

/**
 * Builds the Koa application: request ids, CORS, the API routes generated from the operation
 * registry, plain-text 404s for unknown API routes, and `/health`.
 */
export function createKoaApp(core: Core, options: { trustedProxyHops?: number; healthInfo?: () => Record<string, unknown>; routes?: ApiRoutes } = {}): Koa {
  const app = new Koa();
  app.proxy = false;
  const log = core.runtime.log;

  // nosniff, and HSTS with an https base URL, on every response (http/security-headers.ts).
  const security = securityHeaders(core.runtime.baseUrl);
  app.use(async (ctx, next) => {
    for (const [name, value] of security) ctx.set(name, value);
    return next();
  });

  app.use(async (ctx, next) => {
    const requestId = randomUUID();
    const started = performance.now();
    ctx.state.requestId = requestId;
    for (const prefix of responsePrefixes(ctx.headers)) ctx.set(`${prefix}request-id`, requestId);
    // The request line is written once the response has gone out (or the connection closed),
    // never on the way to the client: a slow log sink must not delay or block answers.
    const { method, path } = ctx;
    ctx.res.once('close', () => {
      log.info({ request_id: requestId, method, path, status: ctx.res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    });
    try {
      await next();
    } catch (error) {
      writeResponse(ctx, errorResponseFor(core, error, requestId));
    }
  });

  // CORS on every API response; OPTIONS short-circuits (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/smart-response.tsx).
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next();
    for (const [name, value] of Object.entries(corsHeaders(ctx.get('access-control-request-headers')))) ctx.set(name, value);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    return next();
  });

  // Gatehouse's own pages keep their refresh token in an HttpOnly cookie (http/cookie-bridge.ts).
  app.use(cookieBridge(core.runtime.baseUrl, API_PREFIXES));
  // The OpenAPI document (docs/openapi.json), public and cached (openapi.ts).
  app.use(openApiMiddleware());

  const routes = options.routes ?? createApiRoutes(core.operations);
  const trustedProxyHops = options.trustedProxyHops ?? 0;
  // Each operation is routed once, under /api/v1; `find` maps /api/latest onto it
  // (protocol/routes.ts). Requests reach this only when the API lane passed them on
  // (http/api-lane.ts: cookie-bridge requests of Gatehouse's own pages, and the in-Koa mount).
  app.use(async (ctx, next) => {
    const found = routes.find(ctx.method, ctx.path);
    if (!found) return next();
    ctx.params = found.params;
    writeResponse(ctx, await executeForHttp(core, found.op, ctx, trustedProxyHops));
  });
  app.use(imagesMiddleware(core));
  app.use(hostedPagesMiddleware(core));
  app.use(dashboardMiddleware(core));

  app.use(async (ctx, next) => {
    if (ctx.path === '/favicon.ico' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return serveFavicon(ctx);
    if (ctx.path === '/health') {
      ctx.set('cache-control', 'no-store');
      ctx.body = { status: 'ok', ...options.healthInfo?.() };
      return;
    }
    if (ctx.path === '/health/ready') {
      try {
        await core.runtime.storage.ping();
        ctx.body = { status: 'ready' };
      } catch (error) {
        ctx.status = 503;
        ctx.body = { status: 'database unreachable', error: (error as Error).message };
      }
      return;
    }
    if (ctx.path.startsWith('/api/')) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = NOT_FOUND_TEXT;
      return;
    }
    return next();
  });

  return app;
}

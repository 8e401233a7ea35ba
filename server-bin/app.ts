import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Core } from '../core/index.ts';
import { errorResponse } from './api/render.ts';
import { renderResponse, responsePrefixes } from './api/respond.ts';
import { securityHeaders } from './security-headers.ts';
import { hostedPagesMiddleware } from './hosted-pages.ts';
import { dashboardMiddleware } from './dashboard.ts';
import { serveFavicon } from './page-shell.ts';
import { imagesMiddleware } from './images.ts';

/**
 * Builds the Koa application of the pages: the hosted pages, the dashboard, images, the favicon
 * and `/health` (with upstream's `POST /health/email` monitor), each response with the security headers and a request id. The API is not
 * here: `/api/…` requests take the one answer (api/answer.ts) before they could reach Koa
 * (api/node.ts, api/fetch.ts).
 */
export function createKoaApp(core: Core, options: { healthInfo?: () => Record<string, unknown> } = {}): Koa {
  const app = new Koa();
  app.proxy = false;
  const log = core.runtime.log;

  // nosniff, and HSTS with an https base URL, on every response (security-headers.ts).
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
      log.info(
        { request_id: requestId, method, path, status: ctx.res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    });
    try {
      await next();
    } catch (error) {
      const response = errorResponse(core.runtime, error, requestId);
      if (response.cause)
        log.error({ request_id: requestId, err: (response.cause as Error)?.stack ?? String(response.cause) }, 'unexpected error');
      const rendered = renderResponse(ctx.headers, response);
      ctx.set(rendered.headers);
      ctx.status = rendered.status;
      ctx.type = response.contentType;
      ctx.body = rendered.body;
    }
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
    if (ctx.path === '/health/email' && ctx.method === 'POST') {
      // Upstream's email monitor lives outside /api; the operation checks the bearer secret.
      const authorization = ctx.get('authorization');
      ctx.set('cache-control', 'no-store');
      ctx.body = await core.invoke('emails.checkHealth', authorization ? { authorization } : {});
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
    return next();
  });

  return app;
}

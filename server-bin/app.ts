import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import type { Core } from '../core/index.ts';
import { errorResponseFor, executeForHttp } from './http/execute.ts';
import { EXPOSED_HEADERS, writeResponse } from './http/respond.ts';
import { securityHeaders } from './http/security-headers.ts';
import { responsePrefixes } from './http/generation.ts';
import { hostedPagesMiddleware } from './hosted-pages.ts';
import { dashboardMiddleware } from './dashboard.ts';
import { imagesMiddleware } from './images.ts';

/** API prefixes served; `/api/latest/X` behaves exactly like `/api/v1/X` (upstream apps/backend/src/app/api/latest/). */
export const API_PREFIXES = ['/api/v1', '/api/latest'] as const;

const NOT_FOUND_TEXT = "404 — this page does not exist in Stack Auth's API. This server is Gatehouse, which speaks Stack Auth's REST API v1; see the README for the routes it serves.";

/**
 * Builds the Koa application: request ids, CORS, the API routes generated from the operation
 * registry, plain-text 404s for unknown API routes, and `/health`.
 */
export function createKoaApp(core: Core, options: { trustedProxyHops?: number; healthInfo?: () => Record<string, unknown> } = {}): Koa {
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

  // CORS on every API response; OPTIONS short-circuits (upstream apps/backend/src/route-handlers/smart-response.tsx).
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next();
    ctx.set('access-control-allow-origin', '*');
    ctx.set('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || '*');
    ctx.set('access-control-expose-headers', EXPOSED_HEADERS);
    ctx.set('access-control-max-age', '86400');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    return next();
  });

  // One router under /api/v1: a request under another prefix of API_PREFIXES is rewritten to
  // /api/v1 before routing, so each request is matched against each operation once, not once
  // per prefix (the request log and validation messages keep the path as sent, pathAsSent).
  const [routedPrefix, ...aliasPrefixes] = API_PREFIXES;
  app.use(async (ctx, next) => {
    for (const alias of aliasPrefixes) {
      if (ctx.path === alias || ctx.path.startsWith(`${alias}/`)) {
        ctx.state.pathAsSent = ctx.path;
        ctx.path = routedPrefix + ctx.path.slice(alias.length);
        break;
      }
    }
    return next();
  });
  const router = new Router();
  for (const op of core.operations) {
    const path = op.path === '/' ? routedPrefix : `${routedPrefix}${op.path}`;
    router.register(path, [op.method], async (ctx) => {
      writeResponse(ctx, await executeForHttp(core, op, ctx, options.trustedProxyHops ?? 0));
    });
  }
  app.use(router.routes());
  app.use(imagesMiddleware(core));
  app.use(hostedPagesMiddleware(core));
  app.use(dashboardMiddleware(core));

  app.use(async (ctx, next) => {
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

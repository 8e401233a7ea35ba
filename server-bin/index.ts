/// <reference types="node" preserve="true" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { createCore, type Core, type CoreOptions, type StorageAdapter } from '../core/index.ts';
import { createKoaApp } from './app.ts';
import { createApiRoutes } from './api/routes.ts';
import { createAnswer } from './api/answer.ts';
import { createNodeEntry } from './api/node.ts';
import { createFetchHandler, type FetchHandler } from './api/fetch.ts';
import { createDispatch, type Dispatch } from './api/dispatch.ts';
import { openStorage } from './storage.ts';
import { firstStartNotice } from './startup-notice.ts';
import { dashboardSignUpForcedOpen, type DatabaseTimeouts } from './config.ts';

export { createKoaApp } from './app.ts';
export { openStorage } from './storage.ts';
export type { Dispatch, DispatchRequest, DispatchResponse } from './api/dispatch.ts';
export type { FetchContext, FetchHandler } from './api/fetch.ts';
export { expressHandler, fastifyPlugin, type ExpressRequest, type FastifyInstanceLike } from './hosts.ts';
export { createUserReader, type UserReader, type UserReaderOptions, type RequestLike } from './get-user.ts';

export interface GatehouseOptions extends Omit<CoreOptions, 'storage'> {
  /** A storage adapter; or give `databaseUrl` / `dataDir` and one is opened. */
  storage?: StorageAdapter;
  databaseUrl?: string;
  /** Folder for the SQLite file when no database URL is given (default `./gatehouse-data`). */
  dataDir?: string;
  /** Bounds on database waits when Gatehouse opens the storage itself (see DatabaseTimeouts). */
  databaseTimeouts?: DatabaseTimeouts;
  /**
   * Path prefix the host mounts Gatehouse under, e.g. `/auth`: requests to
   * `/auth/api/v1/...` are served as `/api/v1/...`. Default: none.
   */
  mountPath?: string;
  /**
   * Receives the first-start notice (the next step, and the internal project's keys when
   * `noticeShowsKeys` is true) when this start generated the keys. Default: written to stderr
   * without the keys, except with `environment: 'test'`; `false` prints nothing. The keys
   * themselves are on `gatehouse.core.generatedKeys`.
   */
  onFirstStartNotice?: ((text: string) => void) | false;
  /**
   * Whether the first-start notice includes the internal project's secret keys. Default false:
   * a library must not write secrets to its host app's stderr, where logs are collected.
   */
  noticeShowsKeys?: boolean;
  /**
   * How many reverse proxies in front of Gatehouse append to `X-Forwarded-For` and are trusted
   * (GATEHOUSE_TRUSTED_PROXY_HOPS; default 0: the socket's peer is the client). Used only for
   * per-address throttling; never trust a header a client could have written itself.
   */
  trustedProxyHops?: number;
  /** Extra fields of the `/health` body, e.g. which `--workers` process answered. */
  healthInfo?: () => Record<string, unknown>;
}

/**
 * A mounted Gatehouse: the core, a Node request handler and Koa middleware for a host server.
 * Every entry (`handler`, `serve`, `middleware`, `fetch`, `dispatch`) answers `/api/…` through
 * the one answer (server-bin/api/answer.ts); the rest goes to the pages app.
 */
export interface Gatehouse {
  readonly core: Core;
  /** The Koa app of the pages (hosted pages, dashboard, images, `/health`); it does not serve the API. */
  readonly app: Koa;
  /** `(req, res)` for `node:http`; answers 404 for paths outside `mountPath`. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Koa middleware: serves paths under `mountPath` (of the URL the client sent, `ctx.originalUrl`,
   * so it also works inside koa-mount at the same path), passes the rest to `next`.
   */
  readonly middleware: Koa.Middleware;
  /**
   * The Web-standard handler (WHATWG Fetch `Request` → `Response`) for Hono, Next.js route
   * handlers, Bun.serve and Deno.serve: `request.url`'s path includes `mountPath`; paths outside
   * it answer 404. `context.clientAddress` is the client's address when the host knows it
   * (per-address throttling). API requests take the same one entry as `handler` and `dispatch`
   * (server-bin/api/fetch.ts).
   */
  readonly fetch: FetchHandler;
  /**
   * Serves `req` when its URL is under `mountPath` and returns true; returns false (touching
   * nothing) otherwise, so a host can pass the request on. The Express and Fastify adapters
   * (server-bin/hosts.ts) call it.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** The normalized `mountPath` ('' when none). */
  readonly mountPath: string;
  /**
   * Answers one API request in-process, without a socket or stream: `{method, path, headers,
   * body}` → `{status, headers, text}`, exactly as over HTTP (same routes, credentials, errors
   * and protocol headers; server-bin/api/dispatch.ts). `path` is under the Gatehouse, not
   * the mount path: `/api/v1/users/me`. The SDK's in-process transport calls it.
   */
  readonly dispatch: Dispatch;
  close(): Promise<void>;
}

/**
 * Creates Gatehouse in-process, so an existing Node server can serve the API under its own path.
 */
export async function createGatehouse(options: GatehouseOptions): Promise<Gatehouse> {
  const storage =
    options.storage ?? openStorage(options.databaseUrl, options.dataDir ?? './gatehouse-data', undefined, options.databaseTimeouts);
  let core: Core;
  try {
    core = await createCore({ dashboardSignUpOpen: () => dashboardSignUpForcedOpen(process.env), ...options, storage });
  } catch (error) {
    // Close what we opened; a caller-provided adapter stays the caller's to close.
    if (!options.storage) await storage.close().catch(() => {});
    throw error;
  }
  const notify =
    options.onFirstStartNotice ??
    (options.environment === 'test'
      ? false
      : (text: string) => {
          process.stderr.write(text);
        });
  if (notify && core.generatedKeys)
    notify(`${firstStartNotice(options.baseUrl ?? '', options.noticeShowsKeys ? core.generatedKeys : null).join('\n')}\n`);
  const trustedProxyHops = options.trustedProxyHops ?? 0;
  const routes = createApiRoutes(core.operations);
  // The one way into the API (api/answer.ts); Koa serves the pages, the dashboard and the rest.
  const answer = createAnswer(core, routes, { trustedProxyHops });
  const apiEntry = createNodeEntry(answer);
  const dispatch = createDispatch(answer, core.runtime.baseUrl);
  const app = createKoaApp(core, { healthInfo: options.healthInfo });
  const callback = app.callback();
  const prefix = (options.mountPath ?? '').replace(/\/+$/, '');

  const strip = (req: IncomingMessage): boolean => {
    if (!prefix) return true;
    const url = req.url ?? '/';
    if (url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) return false;
    req.url = url.slice(prefix.length) || '/';
    return true;
  };

  const serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!strip(req)) return false;
    if (!apiEntry(req, res)) void callback(req, res);
    return true;
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (serve(req, res)) return;
    res.statusCode = 404;
    res.end('Not found');
  };

  // The Web handler's API requests take the same answer; its pages go to the pages app over a
  // loopback listener (api/fetch.ts).
  const web = createFetchHandler({
    prefix,
    answer,
    pages: (req, res) => {
      if (!strip(req)) {
        res.statusCode = 404;
        res.end('Not found');
        return;
      }
      void callback(req, res);
    },
  });

  // Koa middleware. A mounting middleware (koa-mount) rewrites `ctx.path`, and so `req.url`, to
  // the part below its mount before calling this one; `ctx.originalUrl` (set by Koa when the
  // request came in, https://koajs.com/#request-originalurl) keeps what the client sent, so it
  // is what this middleware matches against `mountPath` and serves.
  const middleware: Koa.Middleware = async (ctx, next) => {
    const original = ctx.req.url;
    ctx.req.url = ctx.originalUrl ?? original;
    if (!strip(ctx.req)) {
      ctx.req.url = original;
      return next();
    }
    ctx.respond = false;
    try {
      if (apiEntry(ctx.req, ctx.res)) {
        await new Promise<void>((resolve) => ctx.res.once('close', resolve));
        return;
      }
      await callback(ctx.req, ctx.res);
    } finally {
      ctx.req.url = original;
    }
  };

  const close = async () => {
    await web.close();
    await core.close();
  };
  return { core, app, handler, middleware, fetch: web.fetch, serve, mountPath: prefix, dispatch, close };
}

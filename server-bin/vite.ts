/**
 * `gatehouse-server/vite`: a Vite plugin that runs Gatehouse inside Vite's dev server (and
 * `vite preview`), mounted under `/auth` on the app's own origin, so a Vite app has its API,
 * hosted pages and dashboard with no second process. `gatehouse init` adds it to vite.config.js
 * (server-bin/init-scaffold.ts). A built Vite app is static files: in production, point
 * `VITE_STACK_API_URL` at a deployed Gatehouse instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Gatehouse } from './index.ts';

/** Options of the Vite plugin. */
export interface GatehouseViteOptions {
  /** Path prefix on the dev server's origin (default `/auth`). */
  mountPath?: string;
  /** SQLite folder, relative to Vite's root (default `.gatehouse`, where `gatehouse init` put the project). */
  dataDir?: string;
  /** Gatehouse's environment (default GATEHOUSE_ENVIRONMENT, else `development`: a dev server). */
  environment?: 'development' | 'production' | 'test';
}

type Next = (error?: unknown) => void;
/** The part of Vite's (connect) middleware stack the plugin uses. */
interface Middlewares {
  use(fn: (req: IncomingMessage, res: ServerResponse, next: Next) => void): unknown;
}
interface ServerLike {
  middlewares: Middlewares;
  config: { root: string };
  httpServer?: { once(event: 'close', listener: () => void): unknown } | null;
}

/**
 * The plugin: `plugins: [react(), gatehouse()]`. Gatehouse starts on the first request under the
 * mount path (its base URL, for token issuers and links, is that request's `Host`), so `vite`
 * starts as fast as before; it closes with the dev server.
 */
export function gatehouse(options: GatehouseViteOptions = {}) {
  const mountPath = (options.mountPath ?? '/auth').replace(/\/+$/, '');
  const mount = (server: ServerLike) => {
    let started: Promise<Gatehouse> | undefined;
    const start = (host: string) =>
      (started ??= import('./index.ts').then(async ({ createGatehouse }) => {
        const { resolve } = await import('node:path');
        return createGatehouse({
          dataDir: resolve(server.config.root, options.dataDir ?? '.gatehouse'),
          baseUrl: `http://${host}${mountPath}`,
          mountPath,
          environment: options.environment ?? (process.env.GATEHOUSE_ENVIRONMENT as GatehouseViteOptions['environment']) ?? 'development',
          onFirstStartNotice: false,
        });
      }));
    server.httpServer?.once('close', () => void started?.then((g) => g.close()));
    server.middlewares.use((req, res, next) => {
      const url = req.url ?? '/';
      if (url !== mountPath && !url.startsWith(`${mountPath}/`) && !url.startsWith(`${mountPath}?`)) return next();
      start(req.headers.host ?? 'localhost:5173').then((g) => g.handler(req, res), next);
    });
  };
  return {
    name: 'gatehouse',
    configureServer: mount,
    configurePreviewServer: mount,
  };
}

import type { User } from '../sdk/index.ts';
import type { FetchHandler } from './api/fetch.ts';
import { createUserReader, type RequestLike, type UserReaderOptions } from './get-user.ts';
import type { MountedGatehouse } from '../sdk/index.ts';

/** A Next.js App Router route handler: `export const { GET, POST, … } = auth.handlers`. */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/** What `createNextAuth` returns. */
export interface NextAuth {
  /**
   * Route handlers for a catch-all route at the mount path, e.g. `app/auth/[...gatehouse]/route.ts`
   * with `mountPath: '/auth'`: the API (`/auth/api/v1/*`), the hosted pages (`/auth/handler/*`,
   * `/auth/projects/<id>/handler/*`) and the dashboard, all through `gatehouse.fetch`.
   */
  handlers: Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', NextRouteHandler>;
  /**
   * The signed-in user of the request being rendered (server components, server actions, route
   * handlers), or null; reads the cookies through the `headers` function given to
   * `createNextAuth` (`import { headers } from 'next/headers'`).
   */
  getUser(): Promise<User | null>;
}

/**
 * The Next.js App Router pieces for a Gatehouse mounted in the Next.js server process (Node
 * runtime): route handlers that hand every request to `gatehouse.fetch`, and a server-side
 * `getUser()`. Route protection before rendering is `protectRoutes` from
 * `gatehouse-server/next-middleware` (no server code, so it runs in any middleware runtime).
 * `options.headers` is Next's `headers` from `next/headers`, passed in so this package needs no
 * import of Next itself.
 */
export function createNextAuth(
  gatehouse: MountedGatehouse & { fetch: FetchHandler },
  options: UserReaderOptions & { headers: () => Promise<RequestLike> | RequestLike },
): NextAuth {
  const read = createUserReader(gatehouse, options);
  const handle: NextRouteHandler = (request) => gatehouse.fetch(request);
  return {
    handlers: { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle },
    getUser: async () => read(await options.headers()),
  };
}

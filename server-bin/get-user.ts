import { ServerApp, type MountedGatehouse, type User } from '../sdk/index.ts';

/** Where a request's headers are: a Web `Headers` (or Next.js `headers()`), or anything holding them. */
export type RequestLike =
  | { get(name: string): string | null }
  | { headers: { get(name: string): string | null } | Record<string, string | string[] | undefined> };

/** Which project's users to read. */
export interface UserReaderOptions {
  /** The app's project id (a UUID). */
  projectId: string;
  /** That project's secret server key (`STACK_SECRET_SERVER_KEY`). */
  secretServerKey: string;
}

/**
 * Reads the signed-in user of a request: null when it carries no session, or an expired or
 * revoked one. @throws GatehouseKnownError for anything else (a wrong key, an unknown project).
 */
export type UserReader = (request: RequestLike) => Promise<User | null>;

/**
 * Builds `getUser(request)` for a host's server code: takes the session from the request's
 * cookies (`stack-refresh-<project id>`, `stack-access`, as the SDK's cookie token store writes
 * them) or its `x-stack-auth` header (sdk/tokens.ts), and asks the Gatehouse mounted in this
 * process for the user through `dispatch` (no socket; the same one protocol entry as HTTP,
 * server-bin/api/answer.ts), refreshing an expired access token with the refresh token.
 * Accepts a Web `Request` (Hono `c.req.raw`, Next.js route handlers), Next.js `await headers()`,
 * a node:http / Express request, a Fastify request and a Koa context alike.
 *
 * Mirrors upstream `stackServerApp.getUser({ tokenStore: request })`
 * (https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/apps/implementations/server-app-impl.ts).
 */
export function createUserReader(gatehouse: MountedGatehouse, options: UserReaderOptions): UserReader {
  const app = new ServerApp({ projectId: options.projectId, secretServerKey: options.secretServerKey, gatehouse, tokenStore: null });
  return (request) => app.getUserFromTokens({ headers: 'headers' in request ? request.headers : request });
}

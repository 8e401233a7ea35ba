import type { Transport } from './transport.ts';

/** The part of a mounted Gatehouse (`createGatehouse` from `gatehouse-server/server`) this transport uses. */
export interface MountedGatehouse {
  /**
   * Answers one API request in-process (server-bin/api/dispatch.ts): `path` is under the
   * Gatehouse (`/api/v1/...`, no mount path); header names in any case; the answer's header
   * names lowercase. Typed here without the server's types, so an app's type check of the SDK's
   * declarations needs neither the server nor `@types/node`.
   */
  dispatch(request: {
    method: string;
    path: string;
    headers?: Readonly<Record<string, string>>;
    body?: string;
  }): Promise<{ status: number; headers: Record<string, string>; text: string }>;
  /** The prefix it is mounted under (`createGatehouse({ mountPath })`), e.g. `/auth`; '' for none. */
  readonly mountPath?: string;
}

/**
 * In-process transport: hands each request to the mounted Gatehouse's `dispatch`, with no socket
 * and no fake request or response, so results are exactly those of HTTP. Node only (the
 * Gatehouse runs in the same process). The mount path plays no part: `dispatch` serves paths
 * under the Gatehouse itself, so `new ServerApp({ gatehouse })` works at any mount path.
 */
export function inProcessTransport(gatehouse: MountedGatehouse): Transport {
  return async (request) => {
    const answer = await gatehouse.dispatch({
      method: request.method,
      path: `/api/v1${request.path}`,
      headers: request.headers,
      body: request.body,
    });
    return {
      status: answer.status,
      headers: { get: (name: string) => answer.headers[name.toLowerCase()] ?? null },
      text: answer.text,
    };
  };
}

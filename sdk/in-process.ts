import type { IncomingMessage } from 'node:http';
import type { Transport, TransportResponse } from './transport.ts';

const nodeImport = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

/** The part of a mounted Gatehouse (`createGatehouse` from `gatehouse-server/server`) this transport uses. */
export interface MountedGatehouse {
  /**
   * Its `(req: IncomingMessage, res: ServerResponse) => void` Node handler. Typed without Node's
   * types so that an app's type check of the SDK's declarations needs no `@types/node` (the
   * browser entry's `ClientAppOptions` mentions this interface).
   */
  handler: (req: never, res: never) => void;
  /** The prefix it is mounted under (`createGatehouse({ mountPath })`), e.g. `/auth`; '' for none. */
  readonly mountPath?: string;
}

/**
 * In-process transport: feeds the request to the mounted Gatehouse's Node handler without a
 * socket and collects the response, so results are exactly those of HTTP. Node only.
 * `mountPath` defaults to the Gatehouse's own (`createGatehouse({ mountPath: '/auth' })`), so
 * `new ServerApp({ gatehouse })` works at a mount path without naming it twice (issue 20 item 12).
 */
export function inProcessTransport(gatehouse: MountedGatehouse, mountPath = gatehouse.mountPath ?? ''): Transport {
  return async (request) => {
    // Imported on use through a non-literal specifier, so browser bundlers neither resolve nor
    // include them (the SDK is bundled for browsers; only Node ever runs this transport).
    const { Readable } = await nodeImport<typeof import('node:stream')>('node:stream');
    const { ServerResponse: NodeServerResponse } = await nodeImport<typeof import('node:http')>('node:http');
    const req = Readable.from(request.body === undefined ? [] : [Buffer.from(request.body)]) as unknown as IncomingMessage;
    const headers: Record<string, string> = {};
    for (const [k, val] of Object.entries(request.headers)) headers[k.toLowerCase()] = val;
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    Object.assign(req, { method: request.method, url: `${mountPath}/api/v1${request.path}`, headers, httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1, socket: { remoteAddress: '127.0.0.1', encrypted: false }, connection: { remoteAddress: '127.0.0.1' } });
    const res = new NodeServerResponse(req);
    const chunks: Buffer[] = [];
    return await new Promise<TransportResponse>((resolve, reject) => {
      const collect = (chunk: unknown, encoding?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? encoding as BufferEncoding : 'utf8'));
      };
      res.write = ((chunk: unknown, encoding?: unknown) => { collect(chunk, encoding); return true; }) as typeof res.write;
      res.end = ((chunk?: unknown, encoding?: unknown) => {
        collect(chunk, encoding);
        const outHeaders = res.getHeaders();
        resolve({
          status: res.statusCode,
          headers: { get: (name: string) => { const h = outHeaders[name.toLowerCase()]; return h === undefined ? null : Array.isArray(h) ? h.join(', ') : String(h); } },
          text: Buffer.concat(chunks).toString('utf8'),
        });
        return res;
      }) as typeof res.end;
      try { gatehouse.handler(req as never, res as never); } catch (error) { reject(error); }
    });
  };
}

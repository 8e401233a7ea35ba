import type { IncomingMessage, ServerResponse } from 'node:http';

/** The part of a Gatehouse (`createGatehouse`) the host adapters use. */
interface Servable {
  serve(req: IncomingMessage, res: ServerResponse): boolean;
}

/** An Express request: node:http's, plus the URL before Express removed the mount path. */
export interface ExpressRequest extends IncomingMessage {
  originalUrl?: string;
}

/**
 * Express middleware for `app.use('/auth', expressHandler(gatehouse))` (or `app.use(…)` with no
 * path), Gatehouse created with the same `mountPath: '/auth'`. Express removes the mount path
 * from `req.url` before a mounted middleware runs, so this one serves `req.originalUrl` (the
 * URL as the client sent it, https://expressjs.com/en/5x/api.html#req.originalUrl); a request
 * outside `mountPath` goes on to `next()` with its URL as it was. Mount it before any body
 * parser: Gatehouse reads the request body itself.
 */
export function expressHandler(gatehouse: Servable): (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    const url = req.url;
    req.url = req.originalUrl ?? url;
    if (gatehouse.serve(req, res)) return;
    req.url = url;
    next();
  };
}

/** The part of a Fastify instance `fastifyPlugin` uses (Fastify 4 and 5). */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    fn: (request: unknown, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  all(path: string, handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => void): void;
}

/**
 * A Fastify plugin: `app.register(fastifyPlugin(gatehouse), { prefix: '/auth' })`, Gatehouse
 * created with `mountPath: '/auth'`. Inside the plugin's own scope (Fastify encapsulation) no
 * body is parsed, so Gatehouse reads the raw request; each request is hijacked
 * (https://fastify.dev/docs/latest/Reference/Reply/#hijack) and served on node:http's
 * request and response, whose URL Fastify leaves whole. A path outside `mountPath` answers 404.
 */
export function fastifyPlugin(gatehouse: Servable): (instance: FastifyInstanceLike) => Promise<void> {
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const route = (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => {
      reply.hijack();
      if (gatehouse.serve(request.raw, reply.raw)) return;
      reply.raw.statusCode = 404;
      reply.raw.end('Not found');
    };
    instance.all('/', route);
    instance.all('/*', route);
  };
}

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type Koa from 'koa';
import { ROOT } from './page-shell.ts';
import { embeddedText, isSea } from './sea/native.ts';

/** The URL paths the OpenAPI document is served at (both API prefixes). */
export const OPENAPI_PATHS: ReadonlySet<string> = new Set(['/api/v1/openapi.json', '/api/latest/openapi.json']);

interface Loaded { body: Buffer; gzip: Buffer; etag: string }

/**
 * `GET /api/v1/openapi.json` (and under `/api/latest`): the OpenAPI 3.1 document of the REST API,
 * docs/openapi.json as scripts/gen-openapi.ts generated it from the operation registry (CI fails
 * when it is stale). Public: no project headers. Served from memory after the first read (the
 * copy embedded in the single executable, else the repository's file), with a strong ETag
 * (304 on `if-none-match`), `cache-control: public, max-age=300` and gzip when accepted.
 */
export function openApiMiddleware(): Koa.Middleware {
  let loading: Promise<Loaded> | null = null;
  const load = async (): Promise<Loaded> => {
    const text = isSea() ? embeddedText('docs/openapi.json') : await readFile(join(ROOT, 'docs', 'openapi.json'), 'utf8');
    const body = Buffer.from(text);
    return { body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  };
  return async (ctx, next) => {
    if (!OPENAPI_PATHS.has(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    loading ??= load().catch((error: unknown) => { loading = null; throw error; });
    const doc = await loading;
    ctx.set('cache-control', 'public, max-age=300');
    ctx.set('etag', doc.etag);
    ctx.vary('accept-encoding');
    ctx.type = 'application/json; charset=utf-8';
    if (ctx.get('if-none-match') === doc.etag) {
      ctx.status = 304;
      return;
    }
    if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('content-encoding', 'gzip');
      ctx.body = doc.gzip;
    } else {
      ctx.body = doc.body;
    }
  };
}

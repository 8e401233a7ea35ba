import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/**
 * A body served from memory with a strong ETag and, when worth it, a gzipped copy: the OpenAPI
 * document (api/openapi.ts), the single executable's static files (sea/static-files.ts) and the
 * page bundles (page-shell.ts).
 */
export interface Asset {
  body: Buffer;
  /** The gzip-compressed body (level 9), absent when compression was not worth it. */
  gzip?: Buffer;
  /** A strong ETag (RFC 9110 §8.8.3): the quoted first 27 characters of the body's SHA-256 in base64url. */
  etag: string;
  /** The SHA-256 of the body, first 16 hex digits (cache-busting `?v=` values). */
  hash: string;
}

/**
 * Prepares `content` for serving: its ETag, its hash and a gzip copy when `compress` is true and
 * the body is larger than 1 KiB (below that, gzip rarely pays for its headers).
 */
export function prepareAsset(content: string | Buffer, compress: boolean): Asset {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const sha = createHash('sha256').update(body);
  const digest = sha.digest();
  const asset: Asset = { body, etag: `"${digest.toString('base64url').slice(0, 27)}"`, hash: digest.toString('hex').slice(0, 16) };
  if (compress && body.length > 1024) asset.gzip = gzipSync(body, { level: 9 });
  return asset;
}

/**
 * Whether a request's `Accept-Encoding` (RFC 9110 §12.5.3) prefers gzip to the identity coding:
 * `gzip` (or `*`) listed with a q-value above 0 and not below the q-value the header gives
 * `identity` (1 when not named).
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let gzip = -1;
  let star = -1;
  let identity = 1;
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (Number.isNaN(q)) continue;
    if (name === 'gzip' || name === 'x-gzip') gzip = Math.max(gzip, q);
    else if (name === '*') star = q;
    else if (name === 'identity') identity = q;
  }
  const quality = gzip >= 0 ? gzip : star;
  return quality > 0 && quality >= identity;
}

/** What to send for an asset: status, headers (lowercase names) and body (none for 304). */
export interface AssetAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer | null;
}

/**
 * The answer to a GET or HEAD of `asset`: `cache-control` as given, the ETag, `vary:
 * accept-encoding` when a gzip copy exists; 304 with no body when `if-none-match` lists the ETag
 * (RFC 9110 §13.1.2); otherwise the gzip copy (with `content-encoding: gzip`) when the client
 * prefers it ({@link acceptsGzip}), else the body.
 *
 * @param requestHeaders the request headers, lowercase names.
 */
export function answerAsset(
  asset: Asset,
  contentType: string,
  cacheControl: string,
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>,
): AssetAnswer {
  const get = (name: string) => {
    const value = requestHeaders[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const headers: Record<string, string> = { 'cache-control': cacheControl, etag: asset.etag };
  if (asset.gzip) headers.vary = 'accept-encoding';
  const match = get('if-none-match');
  if (match && (match.trim() === '*' || match.split(',').some((tag) => tag.trim() === asset.etag)))
    return { status: 304, headers, body: null };
  headers['content-type'] = contentType;
  if (asset.gzip && acceptsGzip(get('accept-encoding'))) {
    headers['content-encoding'] = 'gzip';
    return { status: 200, headers, body: asset.gzip };
  }
  return { status: 200, headers, body: asset.body };
}

import type { IncomingMessage } from 'node:http';
import { gunzip, inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import { KnownError, type AnyOperation } from '../../core/index.ts';
import { SIGNATURE_HEADER } from '../protocol/raw-body.ts';

/** Largest accepted request body: room for a 1,000,000-character profile image and more. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Bodies already read (and rewritten) by a middleware, read in place of the request stream. */
const preset = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads the whole body of `req` once (at most MAX_BODY_BYTES, else BODY_PARSING_ERROR), lets
 * `rewrite` change it, and keeps the result for readRequestBody (the cookie bridge's
 * placeholder swap, http/cookie-bridge.ts).
 */
export async function rewriteBody(req: IncomingMessage, rewrite: (body: Buffer) => Buffer): Promise<Buffer> {
  const body = rewrite(await readRaw(req, MAX_BODY_BYTES));
  preset.set(req, body);
  return body;
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const kept = preset.get(req);
  if (kept) return kept;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new KnownError('BODY_PARSING_ERROR', { message: `Request body is larger than ${limit} bytes.` });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The whole request body (at most MAX_BODY_BYTES), or the body a middleware already read.
 * @throws KnownError BODY_PARSING_ERROR past the limit.
 */
export function readRequestBody(req: IncomingMessage): Promise<Buffer> {
  return readRaw(req, MAX_BODY_BYTES);
}

/**
 * Parses a request body already read (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/known-errors.tsx "Body
 * parsing"): JSON, `text/plain` (JSON when it parses, else the text), form-urlencoded (an object
 * of strings) and octet-stream are accepted; a GET's body is ignored; any other content type, or
 * bad JSON, is BODY_PARSING_ERROR.
 *
 * @param contentTypeHeader the request's `content-type` header, if any.
 * @returns the parsed body, or undefined when there is none.
 * @throws KnownError BODY_PARSING_ERROR for bad JSON or an unsupported or missing content type.
 */
export function parseBodyBytes(method: string, contentTypeHeader: string | undefined, raw: Buffer): unknown {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const contentType = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  if (raw.length === 0) return undefined;
  switch (contentType) {
    case 'application/json':
      try {
        return JSON.parse(raw.toString('utf8'));
      } catch (error) {
        throw new KnownError('BODY_PARSING_ERROR', { message: `The request body is not valid JSON: ${(error as Error).message}` });
      }
    case 'text/plain': {
      const text = raw.toString('utf8');
      try { return JSON.parse(text); } catch { return text; }
    }
    case 'application/x-www-form-urlencoded':
      return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    case 'application/octet-stream':
      return raw;
    case '':
      throw new KnownError('BODY_PARSING_ERROR', { message: 'The request has a body but no content-type header. Send application/json.' });
    default:
      throw new KnownError('BODY_PARSING_ERROR', { message: `Unsupported content-type ${contentType}. Send application/json.` });
  }
}

const tooLarge = () => new KnownError('BODY_PARSING_ERROR', { message: `Request body is larger than ${MAX_BODY_BYTES} bytes.` });

type Inflate = (buffer: InputType, options: ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;

/** Runs a zlib decoder off the event loop (libuv's pool), stopping at MAX_BODY_BYTES of output. */
function inflateBounded(decoder: Inflate, raw: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    decoder(raw, { maxOutputLength: MAX_BODY_BYTES }, (error, result) => {
      if (!error) return resolve(result);
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return reject(tooLarge());
      reject(new KnownError('BODY_PARSING_ERROR', { message: `The request body is not valid compressed data (${error.message}).` }));
    });
  });
}

/**
 * Undoes the transport compression a request names in `Content-Encoding` (RFC 9110 §8.4:
 * `gzip`, `x-gzip`, `deflate` — zlib, or raw deflate as some clients send — and `identity`),
 * as upstream's request parsing does. The size limit applies to the decompressed bytes too: a
 * small body that inflates past MAX_BODY_BYTES (a zip bomb) stops there.
 *
 * @throws KnownError BODY_PARSING_ERROR for an unknown encoding, corrupt data, or a body that
 *   decompresses past MAX_BODY_BYTES.
 */
export async function decodeBody(contentEncoding: string | undefined, raw: Buffer): Promise<Buffer> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity' || raw.length === 0) return raw;
  if (encoding === 'gzip' || encoding === 'x-gzip') return inflateBounded(gunzip, raw);
  if (encoding === 'deflate') {
    // zlib-wrapped deflate starts with a header whose first byte's low nibble is 8 (RFC 1950 §2.2).
    return inflateBounded((raw[0]! & 0x0f) === 8 && ((raw[0]! << 8) | raw[1]!) % 31 === 0 ? inflate : inflateRaw, raw);
  }
  throw new KnownError('BODY_PARSING_ERROR', { message: `Unsupported content-encoding ${encoding}. Send gzip, deflate or an uncompressed body.` });
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The body an operation receives from the bytes a transport read (every transport: the API
 * lane, in-process dispatch and Koa): transport compression undone ({@link decodeBody}); for a
 * `rawBody` operation the exact text and the sender's signature; for a `gzippedJsonBody`
 * operation an `application/octet-stream` body that is gzip data is inflated and parsed as JSON;
 * otherwise {@link parseBodyBytes}.
 *
 * @param headers the request headers, lowercase names.
 * @throws KnownError BODY_PARSING_ERROR as decodeBody and parseBodyBytes do.
 */
export async function operationBody(op: AnyOperation, method: string, headers: Readonly<Record<string, string | undefined>>, read: Buffer): Promise<unknown> {
  const raw = await decodeBody(headers['content-encoding'], read);
  if (op.rawBody) return { payload: raw.toString('utf8'), signature: headers[SIGNATURE_HEADER[op.rawBody.signedBy]] || undefined };
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (op.gzippedJsonBody && contentType === 'application/octet-stream' && raw[0] === GZIP_MAGIC[0] && raw[1] === GZIP_MAGIC[1]) {
    return parseBodyBytes(method, 'application/json', await inflateBounded(gunzip, raw));
  }
  return parseBodyBytes(method, headers['content-type'], raw);
}

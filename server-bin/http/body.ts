import type { IncomingMessage } from 'node:http';
import { KnownError } from '../../core/index.ts';

/** Largest accepted request body: room for a 1,000,000-character profile image and more. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Bodies already read (and rewritten) by a middleware, read in place of the request stream. */
const preset = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads the whole body of `req` once (at most MAX_BODY_BYTES, else BODY_PARSING_ERROR), lets
 * `rewrite` change it, and keeps the result for parseBody / readBodyText (the cookie bridge's
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

/** The request body as text (for signature checks over the exact bytes), '' when there is none. */
export async function readBodyText(req: IncomingMessage): Promise<string> {
  return (await readRaw(req, MAX_BODY_BYTES)).toString('utf8');
}

/**
 * Reads and parses a request body (upstream packages/stack-shared/src/known-errors.tsx "Body parsing"): JSON, `text/plain` (JSON
 * when it parses, else the text), form-urlencoded (an object of strings) and octet-stream are
 * accepted; a GET's body is ignored; any other content type, or bad JSON, is BODY_PARSING_ERROR.
 *
 * @returns the parsed body, or undefined when there is none.
 */
export async function parseBody(req: IncomingMessage): Promise<unknown> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return undefined;
  return parseBodyBytes(req.method ?? 'POST', req.headers['content-type'], await readRaw(req, MAX_BODY_BYTES));
}

/**
 * Parses a request body already read (the same rules as {@link parseBody}, for the in-process
 * dispatch of server-bin/protocol/dispatch.ts).
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

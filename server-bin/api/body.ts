import { StringDecoder } from 'node:string_decoder';
import { gunzip, inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import { KnownError, type AnyOperation } from '../../core/index.ts';

/** Largest accepted request body: room for a 1,000,000-character profile image and more. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The request header that carries each signing sender's signature, for operations that take
 * their body unparsed (`rawBody.signedBy`, core/operations/define.ts): Stripe signs its webhook
 * events in `Stripe-Signature` (docs.stripe.com/webhooks "Verify webhook signatures").
 */
export const SIGNATURE_HEADER: Readonly<Record<NonNullable<AnyOperation['rawBody']>['signedBy'], string>> = {
  stripe: 'stripe-signature',
};

const tooLarge = () => new KnownError('BODY_PARSING_ERROR', { message: `Request body is larger than ${MAX_BODY_BYTES} bytes.` });

/**
 * The whole body from its chunks as every entry receives them (a node:http request, a Web
 * request's body stream, the in-process text), at most MAX_BODY_BYTES.
 * @throws KnownError BODY_PARSING_ERROR past the limit.
 */
export async function readBody(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | null | undefined): Promise<Buffer> {
  if (!chunks) return EMPTY;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

const EMPTY = Buffer.alloc(0);

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
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
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
  throw new KnownError('BODY_PARSING_ERROR', {
    message: `Unsupported content-encoding ${encoding}. Send gzip, deflate or an uncompressed body.`,
  });
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The body an operation receives from the bytes a transport read (every transport: the API
 * entry, answer.ts): transport compression undone ({@link decodeBody}); for a
 * `rawBody` operation the exact text and the sender's signature; for a `gzippedJsonBody`
 * operation an `application/octet-stream` body that is gzip data is inflated and parsed as JSON;
 * otherwise {@link parseBodyBytes}.
 *
 * @param headers the request headers, lowercase names.
 * @throws KnownError BODY_PARSING_ERROR as decodeBody and parseBodyBytes do.
 */
export async function operationBody(
  op: AnyOperation,
  method: string,
  headers: Readonly<Record<string, string | undefined>>,
  read: Buffer,
): Promise<unknown> {
  const raw = await decodeBody(headers['content-encoding'], read);
  if (op.rawBody) return { payload: raw.toString('utf8'), signature: headers[SIGNATURE_HEADER[op.rawBody.signedBy]] || undefined };
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (op.gzippedJsonBody && contentType === 'application/octet-stream' && raw[0] === GZIP_MAGIC[0] && raw[1] === GZIP_MAGIC[1]) {
    return parseBodyBytes(method, 'application/json', await inflateBounded(gunzip, raw));
  }
  return parseBodyBytes(method, headers['content-type'], raw);
}

/** Whether a request body is newline-delimited JSON (`application/x-ndjson`), which `ndjsonBody` operations take streamed. */
export function isNdjsonBody(contentTypeHeader: string | undefined): boolean {
  return (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-ndjson';
}

/**
 * The lines of a streamed body (`\n` or `\r\n` separated, UTF-8), yielded as the chunks arrive,
 * so a body of any size passes with memory for one chunk and one line. A compressed body
 * (`Content-Encoding`) is read whole first, within MAX_BODY_BYTES.
 *
 * @param chunks the body as it arrives, or null to read it whole with `readWhole`.
 * @throws KnownError BODY_PARSING_ERROR, while iterating, for a line longer than MAX_BODY_BYTES or
 *   an encoding decodeBody refuses.
 */
export async function* bodyLines(
  contentEncoding: string | undefined,
  chunks: AsyncIterable<Uint8Array> | null,
  readWhole: () => Promise<Buffer>,
): AsyncGenerator<string> {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  const source: AsyncIterable<Uint8Array> | Iterable<Uint8Array> =
    chunks === null || (encoding !== '' && encoding !== 'identity') ? [await decodeBody(contentEncoding, await readWhole())] : chunks;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of source) {
    const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
    rest = lines.pop()!;
    if (rest.length > MAX_BODY_BYTES)
      throw new KnownError('BODY_PARSING_ERROR', { message: `A line of the body is longer than ${MAX_BODY_BYTES} bytes.` });
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  rest += decoder.end();
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

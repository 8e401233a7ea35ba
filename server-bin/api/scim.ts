import type { Runtime } from '../../core/runtime.ts';
import { answerScim, SCIM_MEDIA_TYPE, SCIM_SCHEMA } from '../../core/index.ts';
import { API_PREFIXES } from './routes.ts';

/** The parts of an API request (answer.ts `ApiRequest`) a SCIM answer reads. */
interface ApiRequestLike {
  method: string;
  headers: Readonly<Record<string, string | undefined>>;
  readBody(): Promise<Buffer>;
}

/** Path of the SCIM service under an API prefix: `/api/v1/scim/v2/{team_id}/…`. */
const SCIM_PATH = '/scim/v2/';

/**
 * The path segments after `/api/v1/scim/v2/` (or `/api/latest/scim/v2/`), decoded, or null when
 * `pathname` is not a SCIM request.
 */
export function scimSegments(pathname: string): string[] | null {
  const prefix = API_PREFIXES.find((p) => pathname.toLowerCase().startsWith(`${p}${SCIM_PATH}`));
  if (!prefix) return null;
  const rest = pathname.slice(prefix.length + SCIM_PATH.length).replace(/\/$/, '');
  return rest.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/** An RFC 7644 §3.12 error body for the failures the host itself finds (the body). */
function errorBody(status: number, detail: string, scimType: string): string {
  return JSON.stringify({ schemas: [SCIM_SCHEMA.error], status: String(status), scimType, detail });
}

/**
 * Answers a SCIM request (core/scim `answerScim`) as the host's part: reads and parses the body
 * (`application/scim+json` or `application/json`; bad JSON or another type is a 400
 * `invalidSyntax` SCIM error, never a 500), hands the `Authorization` header and query over, and
 * writes the answer as `application/scim+json` with `Location` for created resources.
 */
export async function answerScimRequest(
  runtime: Runtime,
  request: Pick<ApiRequestLike, 'method' | 'headers' | 'readBody'>,
  segments: string[],
  query: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = { 'content-type': `${SCIM_MEDIA_TYPE}; charset=utf-8`, 'cache-control': 'no-store' };
  let body: unknown;
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'DELETE') {
    let raw: Buffer;
    try {
      raw = await request.readBody();
    } catch {
      return { status: 413, headers, body: errorBody(413, 'The request body is too large.', 'tooMany') };
    }
    if (raw.length > 0) {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== SCIM_MEDIA_TYPE && type !== 'application/json') {
        return { status: 400, headers, body: errorBody(400, `Send the body as ${SCIM_MEDIA_TYPE}.`, 'invalidSyntax') };
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return { status: 400, headers, body: errorBody(400, 'The request body is not valid JSON.', 'invalidSyntax') };
      }
    }
  }
  const answer = await answerScim(
    runtime,
    { method: request.method === 'HEAD' ? 'GET' : request.method, segments, query, authorization: request.headers.authorization, body },
    (error) => runtime.log.error({ err: (error as Error)?.stack ?? String(error) }, 'unexpected SCIM error'),
  );
  if (answer.location) headers.location = answer.location;
  return { status: answer.status, headers, body: answer.body === null ? '' : JSON.stringify(answer.body) };
}

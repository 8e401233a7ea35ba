import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../page-shell.ts';
import { embeddedText, isSea } from '../sea/native.ts';
import { answerAsset, prepareAsset, type Asset, type AssetAnswer } from '../asset.ts';

/** The URL paths the OpenAPI document is served at (both API prefixes). */
export const OPENAPI_PATHS: ReadonlySet<string> = new Set(['/api/v1/openapi.json', '/api/latest/openapi.json']);

/**
 * `GET /api/v1/openapi.json` (and under `/api/latest`): the OpenAPI 3.1 document of the REST API,
 * docs/openapi.json as scripts/gen-openapi.ts generated it from the operation registry (CI fails
 * when it is stale). Public: no project headers. Served from memory after the first read (the
 * copy embedded in the single executable, else the repository's file), with a strong ETag
 * (304 on `if-none-match`), `cache-control: public, max-age=300` and gzip when accepted
 * (../asset.ts). Returns a function of the request headers (lowercase names); a failed read is
 * retried on the next request.
 */
export function openApiDocument(): (requestHeaders: Readonly<Record<string, string | undefined>>) => Promise<AssetAnswer> {
  let loading: Promise<Asset> | null = null;
  const load = async (): Promise<Asset> =>
    prepareAsset(isSea() ? embeddedText('docs/openapi.json') : await readFile(join(ROOT, 'docs', 'openapi.json'), 'utf8'), true);
  return async (requestHeaders) => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return answerAsset(await loading, 'application/json; charset=utf-8', 'public, max-age=300', requestHeaders);
  };
}

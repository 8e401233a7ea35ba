// Writes docs/openapi.json, the OpenAPI 3.1 document of the REST API, from the operation registry
// (scripts/openapi/document.ts). The server serves that file at GET /api/v1/openapi.json.
// Usage: node --import tsx scripts/gen-openapi.ts [--check]
//   --check: write nothing; exit 1 when docs/openapi.json differs from what the registry gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations } from '../core/operations/registry.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { operationDescriptions } from './openapi/descriptions.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = `${root}docs/openapi.json`;

/** The document's text as the generator writes it. */
export function openApiText(): string {
  const version = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
  const document = buildOpenApiDocument(operations, { version, descriptions: operationDescriptions(`${root}core`) });
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = openApiText();
  let current: string | null = null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = null;
  }
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error('docs/openapi.json is stale: run `npm run gen:api` and commit the result.');
      process.exit(1);
    }
    console.log('docs/openapi.json is up to date.');
  } else if (current === text) {
    console.log('docs/openapi.json is up to date.');
  } else {
    writeFileSync(target, text);
    console.log(`wrote docs/openapi.json (${Object.keys(JSON.parse(text).paths).length} paths, ${operations.length} operations)`);
  }
}

import type * as v from 'valibot';
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import type { AnyOperation } from '../../core/operations/define.ts';
import type { AccessType } from '../../core/auth/access-type.ts';
import { errorCatalogue } from '../../core/errors/catalogue.ts';
import { rawKindOf } from '../../core/operations/output.ts';
import { SCIM_ENDPOINTS, SCIM_MEDIA_TYPE } from '../../core/scim/index.ts';
import { IDENTITY_PROVIDER_ENDPOINTS } from '../../server-bin/oidc/endpoints.ts';

/**
 * Builds the OpenAPI 3.1 document of the REST API from the operation registry: one path item per
 * operation (`/api/v1` + its path, `{param}` style), its summary and description, the headers its
 * access types authenticate with (security schemes), its input schemas (path, query, body) and its
 * declared output, and the known errors it may answer with. Objects named with `component(...)`
 * (core/operations/output.ts) become `components.schemas` entries referred to by `$ref`.
 *
 * Used by scripts/gen-openapi.ts (writes docs/openapi.json, which the server serves at
 * `GET /api/v1/openapi.json`) and by the tests. Pure: the same registry gives the same bytes.
 */

/** Marker on an operation whose output is not declared yet (`x-output-missing: true`). */
export const OUTPUT_MISSING = 'x-output-missing';

export interface OpenApiOptions {
  /** `info.version`: the package version. */
  version: string;
  /** Operation id → description (the operation's doc comment); the summary stands in without one. */
  descriptions?: ReadonlyMap<string, string>;
}

type Json = Record<string, unknown>;

/** Security schemes: the request headers of upstream's `x-stack-*` protocol. */
const SECURITY_SCHEMES: Record<string, { header: string; description: string }> = {
  projectId: { header: 'x-stack-project-id', description: 'The project the request is for.' },
  accessType: { header: 'x-stack-access-type', description: '`client`, `server` or `admin`: the level the request authenticates at.' },
  publishableClientKey: {
    header: 'x-stack-publishable-client-key',
    description: "The project's publishable client key (access type `client`).",
  },
  secretServerKey: { header: 'x-stack-secret-server-key', description: 'A secret server key (access type `server`).' },
  superSecretAdminKey: { header: 'x-stack-super-secret-admin-key', description: 'A super secret admin key (access type `admin`).' },
  adminAccessToken: {
    header: 'x-stack-admin-access-token',
    description: 'An access token of a project owner, for the dashboard (access type `admin`).',
  },
  accessToken: { header: 'x-stack-access-token', description: "The signed-in user's access token." },
};

/** The alternatives of credentials each access type accepts (OpenAPI security requirements). */
function securityFor(access: readonly AccessType[] | 'public', requiresUser: boolean): Json[] {
  if (access === 'public') return [];
  const user = requiresUser ? { accessToken: [] } : {};
  const base = { projectId: [], accessType: [] };
  const out: Json[] = [];
  for (const type of access) {
    if (type === 'client') out.push({ ...base, publishableClientKey: [], ...user });
    if (type === 'server') out.push({ ...base, secretServerKey: [], ...user });
    if (type === 'admin') out.push({ ...base, superSecretAdminKey: [], ...user }, { ...base, adminAccessToken: [], ...user });
  }
  return out;
}

/** `/users/:user_id` → `/api/v1/users/{user_id}`. */
export function openApiPath(path: string): string {
  return `/api/v1${path === '/' ? '' : path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

function titleOf(schema: unknown): string | undefined {
  const pipe = (schema as { pipe?: Array<{ type?: string; title?: string }> }).pipe;
  return pipe?.find((a) => a.type === 'title')?.title;
}

/**
 * Converts valibot schemas to JSON Schema (2020-12). Schemas named with `component(...)` (a pipe
 * with a title) become `#/components/schemas/<name>` references: they are collected first
 * (`collect`), then handed to the converter as definitions.
 */
class Converter {
  private readonly definitions: Record<string, v.GenericSchema> = {};
  private readonly seen = new Set<unknown>();

  /** Finds the named schemas inside `schema`. */
  collect(schema: unknown): void {
    if (typeof schema !== 'object' || schema === null || this.seen.has(schema)) return;
    this.seen.add(schema);
    const s = schema as {
      entries?: Record<string, unknown>;
      item?: unknown;
      items?: unknown[];
      options?: unknown[];
      wrapped?: unknown;
      pipe?: unknown[];
      key?: unknown;
      value?: unknown;
      rest?: unknown;
    };
    const name = titleOf(schema);
    if (name && Array.isArray(s.pipe)) this.definitions[name] ??= schema as v.GenericSchema;
    for (const child of [
      ...Object.values(s.entries ?? {}),
      s.item,
      ...(s.items ?? []),
      ...(s.options ?? []),
      s.wrapped,
      s.key,
      s.value,
      s.rest,
      ...(s.pipe ?? []),
    ])
      this.collect(child);
  }

  convert(schema: v.GenericSchema, typeMode: 'input' | 'ignore'): JsonSchema {
    const json = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', typeMode, definitions: this.definitions }) as Json;
    delete json.$schema;
    delete json.$defs;
    return rewriteRefs(json) as JsonSchema;
  }

  /** The collected named schemas, converted. */
  components(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const name of Object.keys(this.definitions).sort((a, b) => a.localeCompare(b))) {
      const json = toJsonSchema(this.definitions[name]!, {
        target: 'draft-2020-12',
        errorMode: 'ignore',
        typeMode: 'ignore',
        definitions: this.definitions,
      }) as Json;
      const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
      out[name] = rewriteRefs(defs[name] ?? json) as JsonSchema;
    }
    return out;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, x]) => [
      k,
      k === '$ref' && typeof x === 'string' ? x.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(x),
    ]),
  );
}

function objectEntries(schema: v.GenericSchema | undefined): Record<string, v.GenericSchema> {
  let s = schema as unknown as { entries?: Record<string, v.GenericSchema>; pipe?: unknown[] } | undefined;
  // A piped object (`v.pipe(v.strictObject(...), ...)`) keeps its entries on the first item.
  if (s && !s.entries && Array.isArray(s.pipe)) s = s.pipe[0] as typeof s;
  return s?.entries ?? {};
}

function isOptional(schema: v.GenericSchema): boolean {
  const type = (schema as { type?: string }).type;
  return type === 'optional' || type === 'exact_optional' || type === 'nullish' || type === 'undefinedable';
}

function parameters(op: AnyOperation, converter: Converter): Json[] {
  const out: Json[] = [];
  const pathNames = [...op.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const params = objectEntries(op.input.params);
  for (const name of pathNames) {
    const schema = params[name];
    out.push({ name, in: 'path', required: true, schema: schema ? converter.convert(schema, 'input') : { type: 'string' } });
  }
  for (const [name, schema] of Object.entries(objectEntries(op.input.query))) {
    out.push({ name, in: 'query', required: !isOptional(schema), schema: converter.convert(schema, 'input') });
  }
  return out;
}

function successResponse(op: AnyOperation, converter: Converter): [string, Json] {
  const status = op.created ? '201' : '200';
  if (!op.output) return [status, { description: 'Success. The output schema of this operation is not declared yet.' }];
  const kind = rawKindOf(op.output);
  if (kind === 'text') return [status, { description: 'Success: plain text.', content: { 'text/plain': { schema: { type: 'string' } } } }];
  if (kind === 'ndjson')
    return [
      status,
      { description: 'Success: newline-delimited JSON, streamed.', content: { 'application/x-ndjson': { schema: { type: 'string' } } } },
    ];
  if (kind === 'html') return [status, { description: 'Success: an HTML page.', content: { 'text/html': { schema: { type: 'string' } } } }];
  if (kind === 'redirect') {
    return ['307', { description: 'A redirect to the URL in `location`.', headers: { location: { schema: { type: 'string' } } } }];
  }
  const options = (op.output as { options?: v.GenericSchema[] }).options;
  const redirectToo = Array.isArray(options) && options.some((o) => rawKindOf(o) === 'redirect');
  const json = redirectToo ? options!.filter((o) => rawKindOf(o) === null) : [op.output];
  const schema = json.length === 1 ? converter.convert(json[0]!, 'ignore') : { anyOf: json.map((o) => converter.convert(o, 'ignore')) };
  return [
    status,
    {
      description: redirectToo ? 'Success: JSON, or a redirect (307) to the URL in `location`.' : 'Success.',
      content: { 'application/json': { schema } },
    },
  ];
}

/** Known errors grouped by status: one response per status naming its codes. */
function errorResponses(op: AnyOperation): Record<string, Json> {
  const byStatus = new Map<number, string[]>();
  for (const code of op.errors) {
    const status = errorCatalogue[code]?.status ?? 400;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Known error${codes.length > 1 ? 's' : ''}: ${codes.join(', ')}. The code is in the body and in the \`x-stack-known-error\` header.`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/KnownError' } } },
    };
  }
  return out;
}

/** Builds the whole document for `operations`. */
export function buildOpenApiDocument(operations: readonly AnyOperation[], options: OpenApiOptions): Json {
  const converter = new Converter();
  for (const op of operations) {
    for (const schema of [op.input.params, op.input.query, op.input.body, op.clientInput?.body, op.output]) converter.collect(schema);
  }
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const item = (paths[openApiPath(op.path)] ??= {});
    const operation: Json = {
      operationId: op.id,
      summary: op.summary,
      description: options.descriptions?.get(op.id) ?? op.summary,
      tags: [op.id.split('.')[0]!],
      security: securityFor(op.access, op.requiresUser === true),
      'x-access-types': op.access === 'public' ? ['public'] : [...op.access],
    };
    const params = parameters(op, converter);
    if (params.length > 0) operation.parameters = params;
    if (op.input.body && !op.ignoresBody) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: converter.convert(op.input.body, 'input') } } };
    }
    if (op.clientInput?.body) operation['x-client-request-body'] = converter.convert(op.clientInput.body, 'input');
    const [status, success] = successResponse(op, converter);
    operation.responses = { [status]: success, ...errorResponses(op) };
    operation['x-known-errors'] = op.errors.map((code) => ({ code, status: errorCatalogue[code]?.status ?? 400 }));
    if (!op.output) operation[OUTPUT_MISSING] = true;
    item[op.method.toLowerCase()] = operation;
  }
  addScimPaths(paths);
  addIdentityProviderPaths(paths);
  const components = {
    schemas: {
      ...converter.components(),
      KnownError: {
        type: 'object',
        description: 'The body of a known error: its code, a message, and the details the catalogue names for it.',
        properties: { code: { type: 'string' }, error: { type: 'string' }, details: { type: 'object' } },
        required: ['code', 'error'],
      },
    },
    securitySchemes: {
      ...Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).map(([name, s]) => [
          name,
          { type: 'apiKey', in: 'header', name: s.header, description: s.description },
        ]),
      ),
      scimBearer: {
        type: 'http',
        scheme: 'bearer',
        description: "A team's SCIM token (`POST /api/v1/teams/{team_id}/scim-tokens`), for the SCIM 2.0 endpoints only.",
      },
      oauthClient: {
        type: 'http',
        scheme: 'basic',
        description:
          "An OAuth client of the project's identity provider (RFC 6749 §2.3.1): HTTP Basic `client_id:client_secret`; `client_secret_post`, `private_key_jwt` (RFC 7523) or a public client's bare `client_id` in the form are accepted as the client was registered.",
      },
      oauthBearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          "An access token (or registration access token) of the project's identity provider (RFC 6750), for its OAuth endpoints only.",
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse REST API',
      version: options.version,
      description:
        "Wire-compatible with Stack Auth's REST API v1. Every path is also served under `/api/latest`. Generated from the operation registry (core/operations/registry.ts) by scripts/gen-openapi.ts.",
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components,
  };
}

/**
 * The SCIM 2.0 endpoints (core/scim `SCIM_ENDPOINTS`): served by server-bin/api/scim.ts outside
 * the Stack-shaped registry (their own media type, bearer tokens and error format, RFC 7644), and
 * listed here under `/api/v1/scim/v2/{team_id}` with the `scim` tag.
 */
function addScimPaths(paths: Record<string, Record<string, Json>>): void {
  const scimJson = (description: string) => ({ description, content: { [SCIM_MEDIA_TYPE]: { schema: { type: 'object' } } } });
  for (const endpoint of SCIM_ENDPOINTS) {
    const path = `/api/v1/scim/v2/{team_id}${endpoint.path}`;
    const names = ['team_id', ...[...endpoint.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!)];
    const operation: Json = {
      operationId: `scim.${endpoint.method.toLowerCase()}${endpoint.path.replace(/\{[a-z_]+\}/g, 'ById').replace(/\//g, '')}`,
      summary: endpoint.summary,
      description: `${endpoint.summary} SCIM 2.0 (RFC 7644): bodies are \`${SCIM_MEDIA_TYPE}\`; errors are SCIM error bodies (\`urn:ietf:params:scim:api:messages:2.0:Error\`). docs/sso.md "SCIM".`,
      tags: ['scim'],
      security: [{ scimBearer: [] }],
      parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      responses: {
        [endpoint.created ? '201' : endpoint.noContent ? '204' : '200']: endpoint.noContent
          ? { description: 'Done.' }
          : scimJson('Success.'),
        '400': scimJson('SCIM error: invalidSyntax, invalidValue, invalidFilter, invalidPath, mutability, noTarget or tooMany.'),
        '401': scimJson('SCIM error: no valid bearer token of this team.'),
        '404': scimJson('SCIM error: no such resource.'),
        ...(endpoint.method === 'POST' || endpoint.method === 'PUT' || endpoint.method === 'PATCH'
          ? { '409': scimJson('SCIM error: uniqueness.') }
          : {}),
      },
    };
    if (endpoint.method === 'POST' || endpoint.method === 'PUT' || endpoint.method === 'PATCH') {
      operation.requestBody = { required: true, content: { [SCIM_MEDIA_TYPE]: { schema: { type: 'object' } } } };
    }
    (paths[path] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
}

/**
 * The identity provider's routes (server-bin/oidc/endpoints.ts `IDENTITY_PROVIDER_ENDPOINTS`): served by
 * `oidc-provider` and the interaction pages (server-bin/oidc) outside the registry, with the RFCs'
 * media types, client authentication and error bodies (`{error, error_description}`), and listed
 * here under `/api/v1/projects/{project_id}/oidc` with the `oidc` tag. Every answer is a 404 until
 * the project turns `oidc.enabled` on.
 */
function addIdentityProviderPaths(paths: Record<string, Record<string, Json>>): void {
  const rfcError = (description: string) => ({
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { error: { type: 'string' }, error_description: { type: 'string' } },
          required: ['error'],
        },
      },
    },
  });
  const security = { none: [], browser: [], client: [{ oauthClient: [] }], bearer: [{ oauthBearer: [] }] } as const;
  for (const endpoint of IDENTITY_PROVIDER_ENDPOINTS) {
    const path = endpoint.root ? endpoint.path : `/api/v1/projects/{project_id}/oidc${endpoint.path}`;
    const names = [...new Set(['project_id', ...[...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!)])];
    const status = String(endpoint.status ?? (endpoint.answer === 'redirect' ? 302 : 200));
    const success =
      endpoint.answer === 'json'
        ? { description: 'Success.', content: { 'application/json': { schema: { type: 'object' } } } }
        : endpoint.answer === 'html'
          ? { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } }
          : endpoint.answer === 'redirect'
            ? {
                description: 'A redirect (to the next step, or to the client with the result).',
                headers: { location: { schema: { type: 'string' } } },
              }
            : { description: 'Done (also for an unknown token, RFC 7009 §2.2).' };
    const operation: Json = {
      operationId: `oidc.${endpoint.method.toLowerCase()}${endpoint.path
        .replace(/^\/\.well-known\/([a-z-]+).*$/, '/$1')
        .replace(/\{([a-z_]+)\}/g, 'By_$1')
        .split(/[/_-]/)
        .filter(Boolean)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('')}${endpoint.root ? 'AtRoot' : ''}`,
      summary: endpoint.summary,
      description: `${endpoint.summary} Served by the project's identity provider (docs/oauth-provider.md), a 404 until \`oidc.enabled\`; refusals are the RFCs' \`{error, error_description}\` bodies.`,
      tags: ['oidc'],
      security: security[endpoint.auth],
      parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      responses: {
        [status]: success,
        '400': rfcError(
          'invalid_request, invalid_grant, invalid_scope, invalid_target, unauthorized_client, unsupported_grant_type, invalid_client_metadata…',
        ),
        ...(endpoint.auth === 'client' || endpoint.auth === 'bearer' ? { '401': rfcError('invalid_client or invalid_token.') } : {}),
        '404': { description: 'Unknown project, or its identity provider is off.' },
      },
    };
    if (endpoint.body) operation.requestBody = { required: true, content: { [endpoint.body]: { schema: { type: 'object' } } } };
    (paths[path] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
}

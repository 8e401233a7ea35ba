import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { operations } from '../../core/operations/registry.ts';
import type { AnyOperation } from '../../core/operations/define.ts';
import { errorCatalogue } from '../../core/errors/catalogue.ts';
import { SIGNATURE_HEADER } from '../../server-bin/api/body.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { createProject, type Caller } from '../helpers/api.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * Table-driven: every route of the registry gets malformed JSON, wrong types, unknown fields,
 * missing and wrong headers and keys, and must answer a 4xx with a catalogue code every time,
 * never a 5xx.
 */

type SchemaNode = {
  type?: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: SchemaNode[];
  key?: string;
  literal?: unknown;
};

function unwrap(s: SchemaNode | undefined): SchemaNode | undefined {
  while (s?.wrapped) s = s.wrapped;
  return s;
}

/**
 * For a body that is a discriminated union (`v.variant`), its discriminator set to the first
 * option's value, so an unknown field is judged against that option (valibot reports only the
 * missing discriminator otherwise); `{}` for any other body.
 */
function discriminatorOf(op: AnyOperation): Record<string, unknown> {
  const body = unwrap(op.input.body as SchemaNode);
  if (body?.type !== 'variant' || !body.key) return {};
  return { [body.key]: unwrap(unwrap(body.options?.[0])?.entries?.[body.key])?.literal };
}

/**
 * For each body field whose schema is an object (or an array of objects, or a discriminated
 * union of objects), a body holding that field as an object with one unknown property: the
 * answer must be SCHEMA_ERROR naming it, never a 500.
 */
function nestedUnknownBodies(op: AnyOperation): { field: string; body: Record<string, unknown> }[] {
  const bodySchemas = [op.input.body, op.clientInput?.body].map((s) => unwrap(s as SchemaNode)).filter((s) => s?.type === 'strict_object');
  const out: { field: string; body: Record<string, unknown> }[] = [];
  const seen = new Set<string>();
  for (const schema of bodySchemas) {
    for (const [key, entry] of Object.entries(schema!.entries ?? {})) {
      const node = unwrap(entry);
      const objects = (n: SchemaNode | undefined): Record<string, unknown>[] => {
        if (!n) return [];
        if (n.type === 'strict_object' || n.type === 'object') return [{ __unknown_nested: true }];
        if (n.type === 'variant' && n.key) {
          return (n.options ?? []).map(unwrap).map((o) => ({ [n.key!]: unwrap(o?.entries?.[n.key!])?.literal, __unknown_nested: true }));
        }
        return [];
      };
      const direct = objects(node).map((value) => ({ field: key, body: { [key]: value } }));
      const inArray =
        node?.type === 'array' ? objects(unwrap(node.item)).map((value) => ({ field: `${key}[0]`, body: { [key]: [value] } })) : [];
      for (const c of [...direct, ...inArray]) {
        const id = JSON.stringify(c.body);
        if (!seen.has(id)) {
          seen.add(id);
          out.push(c);
        }
      }
      // One level deeper (e.g. PATCH /internal/projects/current body.config.email_config).
      if (node?.type === 'strict_object') {
        for (const [inner, innerEntry] of Object.entries(node.entries ?? {})) {
          const n = unwrap(innerEntry);
          const values = [
            ...objects(n).map((value) => ({ field: `${key}.${inner}`, value })),
            ...(n?.type === 'array' ? objects(unwrap(n.item)).map((value) => ({ field: `${key}.${inner}[0]`, value: [value] })) : []),
          ];
          for (const { field, value } of values) {
            const body = { [key]: { [inner]: value } };
            const id = JSON.stringify(body);
            if (!seen.has(id)) {
              seen.add(id);
              out.push({ field, body });
            }
          }
        }
      }
    }
  }
  return out;
}

function pathFor(op: AnyOperation): string {
  return op.path.replace(/:([a-z_]+)/gi, () => randomUUID());
}

function headersFor(caller: Caller): Record<string, string> {
  const h: Record<string, string> = {};
  if (caller.projectId) h['x-stack-project-id'] = caller.projectId;
  if (caller.accessType) h['x-stack-access-type'] = caller.accessType;
  if (caller.adminAccessToken) h['x-stack-admin-access-token'] = caller.adminAccessToken;
  if (caller.secretServerKey) h['x-stack-secret-server-key'] = caller.secretServerKey;
  if (caller.accessToken) h['x-stack-access-token'] = caller.accessToken;
  return { ...h, ...(caller.headers ?? {}) };
}

async function send(server: TestServer, op: AnyOperation, headers: Record<string, string>, body?: string, query = '') {
  const url = `${server.url}/api/v1${op.path === '/' ? '' : pathFor(op)}${query}`;
  const res = await fetch(url, { method: op.method, headers, body: op.method === 'GET' ? undefined : body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json, header: res.headers.get('x-stack-known-error') ?? res.headers.get('x-hexclave-known-error') };
}

function expectKnown(what: string, res: Awaited<ReturnType<typeof send>>, codes: string[]) {
  assert.ok(res.status >= 400 && res.status < 500, `${what}: expected a 4xx, got ${res.status} ${res.text.slice(0, 300)}`);
  assert.ok(res.json && typeof res.json.code === 'string', `${what}: expected a known error body, got ${res.text.slice(0, 300)}`);
  assert.ok(res.json.code in errorCatalogue, `${what}: ${res.json.code} is not in the catalogue`);
  assert.equal(res.header, res.json.code, `${what}: known-error header must equal body code`);
  assert.ok(codes.includes(res.json.code), `${what}: expected one of ${codes.join(', ')}, got ${res.json.code}: ${res.json.error}`);
}

/** The top-level keys an object schema declares (through optional/nullable wrappers), else []. */
function schemaKeys(schema: unknown): string[] {
  let node = schema as { wrapped?: unknown; entries?: Record<string, unknown> } | undefined;
  while (node && node.wrapped) node = node.wrapped as typeof node;
  return node?.entries ? Object.keys(node.entries) : [];
}

/** JSON text with NUL bytes and lone surrogates (only expressible as escapes) in every value. */
const NUL = '"a\\u0000b"';
const LONE_SURROGATE = '"x\\ud800y"';

describeWithServer('every route with malformed input', (get) => {
  let callers: Record<'client' | 'server' | 'admin', Caller>;
  before(async () => {
    const p = await createProject(get());
    callers = { client: p.client, server: p.server, admin: p.admin };
  });

  for (const op of operations) {
    const name = `${op.method} ${op.path} (${op.id})`;
    const authed = op.access !== 'public';
    const best: 'client' | 'server' | 'admin' = authed
      ? op.access.includes('admin')
        ? 'admin'
        : op.access.includes('server')
          ? 'server'
          : 'client'
      : 'admin';

    it(`${name}: rejects missing, wrong and partial credentials`, async () => {
      const server = get();
      if (authed) expectKnown('no headers', await send(server, op, {}), ['ACCESS_TYPE_REQUIRED']);
      expectKnown(
        'key without access type',
        await send(server, op, { 'x-stack-project-id': callers.admin.projectId!, 'x-stack-secret-server-key': 'ssk_nope' }),
        ['PROJECT_KEY_WITHOUT_ACCESS_TYPE'],
      );
      expectKnown(
        'bad access type',
        await send(server, op, { 'x-stack-project-id': callers.admin.projectId!, 'x-stack-access-type': 'root' }),
        ['INVALID_ACCESS_TYPE'],
      );
      expectKnown('access type without project', await send(server, op, { 'x-stack-access-type': 'server' }), [
        'ACCESS_TYPE_WITHOUT_PROJECT_ID',
      ]);
      expectKnown('unknown project', await send(server, op, { 'x-stack-project-id': randomUUID(), 'x-stack-access-type': 'client' }), [
        'CURRENT_PROJECT_NOT_FOUND',
      ]);
      expectKnown(
        'wrong server key',
        await send(server, op, {
          'x-hexclave-project-id': callers.admin.projectId!,
          'x-hexclave-access-type': 'server',
          'x-hexclave-secret-server-key': 'ssk_wrong',
        }),
        ['INVALID_SECRET_SERVER_KEY'],
      );
      expectKnown(
        'missing admin key',
        await send(server, op, {
          'x-stack-project-id': callers.admin.projectId!,
          'x-stack-access-type': 'admin',
          'x-stack-super-secret-admin-key': '',
        }),
        ['ADMIN_AUTHENTICATION_REQUIRED'],
      );
      expectKnown('garbage access token', await send(server, op, { ...headersFor(callers.client), 'x-stack-access-token': 'not.a.jwt' }), [
        'UNPARSABLE_ACCESS_TOKEN',
      ]);
      expectKnown(
        'garbage admin token',
        await send(server, op, {
          'x-stack-project-id': callers.admin.projectId!,
          'x-stack-access-type': 'admin',
          'x-stack-admin-access-token': 'garbage',
        }),
        ['UNPARSABLE_ADMIN_ACCESS_TOKEN'],
      );
      if (authed) {
        for (const level of ['client', 'server', 'admin'] as const) {
          if (op.access.includes(level)) continue;
          expectKnown(`as ${level}`, await send(server, op, headersFor(callers[level])), ['INSUFFICIENT_ACCESS_TYPE']);
        }
      }
    });

    if (op.ignoresUnknownQuery) {
      // Provider callbacks ignore unknown parameters (RFC 6749 §4.1.2); the rest of the query still must validate.
      it(`${name}: ignores unknown query parameters but still answers a known 4xx for an incomplete query`, async () => {
        const res = await send(get(), op, headersFor(callers[best]), op.method === 'GET' ? undefined : '{}', '?__unknown_param=1');
        expectKnown('unknown query', res, ['SCHEMA_ERROR']);
        assert.doesNotMatch(res.json.error, /__unknown_param/);
      });
    } else {
      it(`${name}: rejects unknown query parameters, naming them`, async () => {
        const res = await send(get(), op, headersFor(callers[best]), op.method === 'GET' ? undefined : '{}', '?__unknown_param=1');
        expectKnown('unknown query', res, ['SCHEMA_ERROR']);
        assert.match(res.json.error, /__unknown_param/);
      });
    }

    it(`${name}: refuses NUL bytes and lone surrogates in params, query and body with a SCHEMA_ERROR naming the field (issue 12 finding 8)`, async () => {
      const server = get();
      const headers = { ...headersFor(callers[best]), 'content-type': 'application/json' };
      const schemas = best === 'client' && op.clientInput ? op.clientInput : op.input;
      const param = /:([a-z_]+)/i.exec(op.path)?.[1];
      if (param) {
        const url = `${server.url}/api/v1${op.path.replace(/:([a-z_]+)/gi, (_m, p: string) => (p === param ? 'a%00b' : randomUUID()))}`;
        const res = await fetch(url, { method: op.method, headers, body: op.method === 'GET' ? undefined : '{}' });
        const text = await res.text();
        const r = { status: res.status, text, json: JSON.parse(text), header: res.headers.get('x-stack-known-error') };
        expectKnown(`NUL in params.${param}`, r, ['SCHEMA_ERROR']);
        assert.match(r.json.error, new RegExp(`params\\.${param}`));
      }
      for (const key of schemaKeys(schemas.query)) {
        const res = await send(server, op, headers, op.method === 'GET' ? undefined : '{}', `?${key}=a%00b`);
        expectKnown(`NUL in query.${key}`, res, ['SCHEMA_ERROR']);
        assert.match(res.json.error, new RegExp(`query\\.${key}`));
      }
      // A route that ignores its body (upstream's DELETE /teams/{id}) never reads these strings;
      // one that takes its body raw (the Stripe webhook) checks a signature over the bytes instead.
      if (op.method !== 'GET' && !op.ignoresBody && !op.rawBody) {
        const keys = schemaKeys(schemas.body);
        for (const bad of [NUL, LONE_SURROGATE]) {
          const body = `{${[...keys.map((k) => `"${k}": ${bad}`), `"__nested": {"k": [${bad}]}`].join(', ')}}`;
          const res = await send(server, op, headers, body);
          expectKnown(`${bad} in the body`, res, ['SCHEMA_ERROR']);
          for (const k of keys) assert.match(res.json.error, new RegExp(`body\\.${k}\\b`), `${bad}: ${res.json.error}`);
          assert.match(res.json.error, /body\.__nested\.k\[0\]/);
        }
      }
    });

    if (op.method !== 'GET' && op.ignoresBody) {
      it(`${name}: ignores any well-formed body, as upstream does, and still refuses malformed JSON`, async () => {
        const server = get();
        const json = { ...headersFor(callers[best]), 'content-type': 'application/json' };
        expectKnown('malformed JSON', await send(server, op, json, '{"a": '), ['BODY_PARSING_ERROR']);
        const ignored = await send(server, op, json, JSON.stringify({ __unknown_field: true }));
        assert.ok(ignored.status < 500, `${ignored.status} ${ignored.text.slice(0, 300)}`);
        assert.notEqual(ignored.json?.code, 'SCHEMA_ERROR', ignored.text.slice(0, 300));
      });
    }

    if (op.rawBody) {
      it(`${name}: takes its body unparsed, so malformed JSON, junk, NUL bytes and any content type answer its own known 4xx`, async () => {
        const server = get();
        const json = { ...headersFor(callers[best]), 'content-type': 'application/json' };
        const query = schemaKeys(op.input.query).length
          ? `?${schemaKeys(op.input.query)
              .map((k) => `${k}=${randomUUID()}`)
              .join('&')}`
          : '';
        for (const [what, headers, body] of [
          ['malformed JSON', json, '{"a": '],
          ['array body', json, '[1, 2]'],
          ['NUL byte', json, `{"a": ${NUL}}`],
          ['xml body', { ...json, 'content-type': 'application/xml' }, '<a/>'],
          ['signed junk', { ...json, [SIGNATURE_HEADER[op.rawBody!.signedBy]]: 't=1,v1=00' }, 'junk'],
        ] as const) {
          expectKnown(what, await send(server, op, headers, body, query), [...op.errors]);
        }
      });
    }

    if (op.method !== 'GET' && !op.ignoresBody && !op.rawBody) {
      it(`${name}: rejects malformed JSON, wrong types, unknown fields and unsupported content types`, async () => {
        const server = get();
        const json = { ...headersFor(callers[best]), 'content-type': 'application/json' };
        expectKnown('malformed JSON', await send(server, op, json, '{"a": '), ['BODY_PARSING_ERROR']);
        expectKnown('array body', await send(server, op, json, '[1, 2]'), ['SCHEMA_ERROR']);
        expectKnown('number body', await send(server, op, json, '42'), ['SCHEMA_ERROR']);
        const unknown = await send(server, op, json, JSON.stringify({ ...discriminatorOf(op), __unknown_field: true }));
        expectKnown('unknown field', unknown, ['SCHEMA_ERROR']);
        assert.match(unknown.json.error, /__unknown_field/);
        const wrongTypes = await send(
          server,
          op,
          json,
          JSON.stringify(
            Object.fromEntries(
              ['email', 'password', 'display_name', 'user_id', 'team_id', 'code', 'description', 'config', 'id'].map((k) => [
                k,
                { nested: [1] },
              ]),
            ),
          ),
        );
        expectKnown('wrong types', wrongTypes, ['SCHEMA_ERROR']);
        for (const { field, body } of nestedUnknownBodies(op)) {
          const nested = await send(server, op, json, JSON.stringify(body));
          expectKnown(`nested unknown property in ${field}`, nested, ['SCHEMA_ERROR']);
          assert.match(nested.json.error, /__unknown_nested/, `nested unknown property in ${field} must be named: ${nested.json.error}`);
        }
        expectKnown('xml body', await send(server, op, { ...headersFor(callers[best]), 'content-type': 'application/xml' }, '<a/>'), [
          'BODY_PARSING_ERROR',
        ]);
      });
    }
  }
});

describeWithServer('text no database can store (issue 12 finding 8)', (get) => {
  it('refuses a NUL byte or an unpaired surrogate in otherwise valid fields with a SCHEMA_ERROR naming the field, and stores nothing', async () => {
    const server = get();
    const p = await createProject(server);
    const cases: Array<[string, string, string, string]> = [
      ['POST', '/users', '{"display_name": "Eve\\u0000"}', 'body.display_name'],
      ['POST', '/users', '{"display_name": "Eve\\ud800"}', 'body.display_name'],
      ['POST', '/users', '{"primary_email": "eve@example.com", "client_metadata": {"note\\u0000": 1}}', 'body.client_metadata.note\\u0000'],
      ['POST', '/teams', '{"display_name": "Team\\u0000"}', 'body.display_name'],
      ['GET', '/users?query=a%00', '', 'query.query'],
      ['GET', '/teams?user_id=a%00', '', 'query.user_id'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await fetch(`${server.url}/api/v1${path}`, {
        method,
        headers: { ...headersFor(p.server), 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : body,
      });
      const text = await res.text();
      assert.equal(res.status, 400, `${method} ${path} ${body}: ${text}`);
      assert.equal(res.headers.get('x-stack-known-error'), 'SCHEMA_ERROR');
      assert.ok(JSON.parse(text).error.includes(field), `${field} not named: ${text}`);
    }
    const users = await fetch(`${server.url}/api/v1/users`, { headers: headersFor(p.server) });
    assert.deepEqual(((await users.json()) as { items: unknown[] }).items, []);
  });
});

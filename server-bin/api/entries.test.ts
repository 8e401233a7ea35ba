import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Koa from 'koa';
import { createGatehouse, type Gatehouse } from '../index.ts';
import { manualClock } from '../../core/lib/clock.ts';
import { operations } from '../../core/index.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/helpers/dialects.ts';
import { NOT_FOUND_TEXT } from './routes.ts';

/**
 * The one entry: node:http (`gatehouse.handler`), the Koa mount (`gatehouse.middleware`), the
 * Web handler (`gatehouse.fetch`) and the in-process `dispatch` answer every operation of the
 * registry alike. Each entry has its own Gatehouse on its own database, seeded with the same
 * keys, and receives the same requests in the same order, so each sees the same state.
 */

const SEED = {
  publishableClientKey: 'pck_entries_test_publishable_key_0123456789abcdefghijklm',
  secretServerKey: 'ssk_entries_test_secret_server_key_0123456789abcdefghijkl',
  superSecretAdminKey: 'sak_entries_test_super_secret_admin_key_0123456789abcdef',
};

/** A request as the test sends it to every entry (path under the Gatehouse, no mount path). */
interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
/** An answer as the test compares it: status, headers (lowercase, sorted) and body bytes. */
interface Got {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

/**
 * Headers node:http adds around an answer rather than the answer itself (a Web `Response` and
 * `dispatch` have none): `date` and the connection's. `content-length` is the answer's own.
 */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'openapi.json'), 'utf8')) as Json;

function resolve(schema: Json | undefined): Json {
  let s = schema ?? {};
  while (typeof s.$ref === 'string') s = doc.components.schemas[s.$ref.split('/').pop()!] ?? {};
  return s;
}

/** A value the schema accepts (its first enum value, minimum, required properties…), as far as a JSON Schema says. */
function sample(schema: Json | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 6) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) return sample(s[key].find((o: Json) => resolve(o).type !== 'null') ?? s[key][0], depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of (s.required ?? []) as string[]) out[name] = sample(s.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, depth + 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'email') return 'generated@example.com';
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/generated';
      return 'generated'.padEnd(s.minLength ?? 0, 'x');
    }
    default:
      return null;
  }
}

/** The generated request of an operation: path parameters, required query parameters and body from docs/openapi.json, credentials for its lowest access type. */
function generatedRequest(op: (typeof operations)[number]): Sent {
  const entry = Object.entries(doc.paths as Json).find(([, item]) => (item as Json)[op.method.toLowerCase()]?.operationId === op.id)?.[1]?.[
    op.method.toLowerCase()
  ] as Json | undefined;
  assert.ok(entry, `${op.id} is in docs/openapi.json`);
  const params = (entry.parameters ?? []) as Json[];
  const path = op.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = sample(params.find((p) => p.in === 'path' && p.name === name)?.schema);
    return encodeURIComponent(String(value ?? 'generated'));
  });
  const query = new URLSearchParams();
  for (const p of params) if (p.in === 'query' && p.required) query.set(p.name, String(sample(p.schema)));
  const headers: Record<string, string> = {};
  if (op.access !== 'public') {
    const access = op.access[0]!;
    headers['x-stack-project-id'] = 'internal';
    headers['x-stack-access-type'] = access;
    if (access === 'client') headers['x-stack-publishable-client-key'] = SEED.publishableClientKey;
    if (access === 'server') headers['x-stack-secret-server-key'] = SEED.secretServerKey;
    if (access === 'admin') headers['x-stack-super-secret-admin-key'] = SEED.superSecretAdminKey;
  }
  const schema = entry.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const body = schema && op.method !== 'GET' ? JSON.stringify(sample(schema)) : undefined;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const q = query.toString();
  return { method: op.method, path: `/api/v1${op.path === '/' ? '' : path}${q ? `?${q}` : ''}`, headers, body };
}

/** Status, headers (framing aside) and body of a node:http answer; node's content-length checked against the body. */
function viaHttp(url: string, sent: Sent): Promise<Got> {
  return new Promise((resolveGot, reject) => {
    const headers = sent.body === undefined ? sent.headers : { ...sent.headers, 'content-length': String(Buffer.byteLength(sent.body)) };
    const req = httpRequest(`${url}${sent.path}`, { method: sent.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.headers['content-length'] !== undefined && sent.method !== 'HEAD')
          assert.equal(Number(res.headers['content-length']), body.length, `${sent.method} ${sent.path}: content-length`);
        const headers: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolveGot({ status: res.statusCode!, headers: comparable(headers), body: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(sent.body);
  });
}

function comparable(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.filter(([name]) => !FRAMING.has(name)).sort(([a], [b]) => a.localeCompare(b));
}

/** The answer with its request id (unique per request by design) replaced by a marker. */
function withoutRequestId(got: Got, label: string): Got {
  const id = got.headers.find(([name]) => name.endsWith('request-id'))?.[1];
  assert.ok(id, `${label}: every answer carries a request id (${JSON.stringify(got)})`);
  const mark = (text: string) => text.split(id).join('<request-id>');
  return { status: got.status, headers: got.headers.map(([n, v]) => [n, mark(v)]), body: mark(got.body) };
}

/**
 * Values that differ between two Gatehouses by design, whatever the entry: generated ids, tokens
 * and signatures, timestamps. Only an answer that differs byte for byte is compared again with
 * them replaced; the test counts how many needed it.
 */
function withoutGenerated(got: Got): Got {
  const mask = (text: string) =>
    text
      .replace(/"last_four":"[^"]*"/g, '"last_four":"<last four>"')
      .replace(/"(salt|sealed_secrets)":"[^"]*"/g, '"$1":"<random>"')
      .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<iso>')
      .replace(/\b\d{13}\b/g, '<millis>')
      .replace(/[A-Za-z0-9_-]{24,}/g, '<token>');
  // NDJSON exports list records by id, and the ids are generated: compare the lines as a set.
  const ndjson = got.headers.some(([name, value]) => name === 'content-type' && value.includes('x-ndjson'));
  const body = ndjson ? mask(got.body).split('\n').sort().join('\n') : mask(got.body);
  return { status: got.status, headers: got.headers.map(([n, v]) => [n, mask(v)]), body };
}

for (const dialect of testDialects()) {
  describe(`one entry into the API [${dialect}]`, () => {
    const databases: TestDatabase[] = [];
    const gatehouses: Gatehouse[] = [];
    const servers: Server[] = [];
    let nodeUrl = '';
    let koaUrl = '';
    let entries: Array<[string, (sent: Sent) => Promise<Got>]> = [];

    // One clock for the four, moved on between operations: their answers are compared byte for
    // byte, and dated ones (metrics' daily and hourly series) would differ across an hour or a
    // midnight on the wall clock.
    const clock = manualClock(Date.now());

    before(async () => {
      for (let i = 0; i < 4; i++) {
        const database = await createTestDatabase(dialect);
        databases.push(database);
        gatehouses.push(
          await createGatehouse({
            storage: database.open(),
            baseUrl: 'http://localhost',
            secret: 'entries-test',
            seedKeys: SEED,
            clock,
            strictErrors: true,
            environment: 'test',
          }),
        );
      }
      const [forNode, forKoa, forFetch, forDispatch] = gatehouses as [Gatehouse, Gatehouse, Gatehouse, Gatehouse];
      const koa = new Koa();
      koa.use(forKoa.middleware);
      koa.use((ctx) => {
        ctx.body = 'koa host';
      });
      servers.push(createServer(forNode.handler), createServer(koa.callback()));
      for (const server of servers) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      [nodeUrl, koaUrl] = servers.map((s) => `http://127.0.0.1:${(s.address() as { port: number }).port}`) as [string, string];
      entries = [
        ['node:http', (sent) => viaHttp(nodeUrl, sent)],
        ['Koa mount', (sent) => viaHttp(koaUrl, sent)],
        [
          'fetch',
          async (sent) => {
            const res = await forFetch.fetch(
              new Request(`http://localhost${sent.path}`, { method: sent.method, headers: sent.headers, body: sent.body }),
              { clientAddress: '127.0.0.1' },
            );
            return {
              status: res.status,
              headers: comparable([...res.headers]),
              body: Buffer.from(await res.arrayBuffer()).toString('utf8'),
            };
          },
        ],
        [
          'dispatch',
          async (sent) => {
            const res = await forDispatch.dispatch(sent);
            return { status: res.status, headers: comparable(Object.entries(res.headers)), body: res.text };
          },
        ],
      ];
    });

    after(async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
      for (const gatehouse of gatehouses) await gatehouse.close();
      for (const database of databases) await database.drop();
    });

    it("answers the protocol's edge cases alike: spellings, OPTIONS, 404s, bad bodies, override and generation headers, queries", async () => {
      const client = {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': SEED.publishableClientKey,
      };
      const json = { ...client, 'content-type': 'application/json' };
      const cases: Sent[] = [
        { method: 'GET', path: '/api/v1/users/me', headers: client },
        { method: 'HEAD', path: '/api/v1/users/me', headers: client },
        { method: 'GET', path: '/api/latest/projects/current/', headers: client },
        { method: 'GET', path: '/API/V1/Projects/Current', headers: client },
        { method: 'GET', path: '/api/v1/users/me', headers: { ...client, 'x-stack-override-error-status': 'true' } },
        { method: 'GET', path: '/api/v1/users/me', headers: { 'x-hexclave-project-id': 'internal', 'x-hexclave-access-type': 'client' } },
        { method: 'GET', path: '/api/v1/projects/current?x=1&x=2', headers: client },
        { method: 'GET', path: '/api/v1', headers: {} },
        { method: 'GET', path: '/api/v1/no-such-route', headers: client },
        { method: 'OPTIONS', path: '/api/v1/users/me', headers: { 'access-control-request-headers': 'x-stack-project-id, content-type' } },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: json, body: '{"email":' },
        { method: 'POST', path: '/api/v1/auth/password/sign-in', headers: { ...client, 'content-type': 'text/xml' }, body: '<a/>' },
        {
          method: 'POST',
          path: '/api/v1/auth/password/sign-in',
          headers: json,
          body: JSON.stringify({ email: 'x', password: 1, extra: { deep: true } }),
        },
        { method: 'GET', path: '/api/v1/projects/current', headers: { ...client, accept: 'text/html' } },
        { method: 'GET', path: '/api/v1/openapi.json', headers: {} },
        { method: 'HEAD', path: '/api/latest/openapi.json', headers: {} },
      ];
      for (const sent of cases) {
        const answers: Got[] = [];
        for (const [name, send] of entries) answers.push(withoutRequestId(await send(sent), `${sent.method} ${sent.path} via ${name}`));
        for (const [index, got] of answers.entries())
          assert.deepEqual(got, answers[0], `${sent.method} ${sent.path}: ${entries[index]![0]} answers as node:http`);
      }
    });

    it('refuses a body over the limit with the catalogue error through every entry', async () => {
      const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5 * 1024 * 1024 + 10) });
      for (const [name, send] of entries) {
        const got = await send({
          method: 'POST',
          path: '/api/v1/auth/password/sign-in',
          headers: {
            'x-stack-project-id': 'internal',
            'x-stack-access-type': 'client',
            'x-stack-publishable-client-key': SEED.publishableClientKey,
            'content-type': 'application/json',
          },
          body: big,
        });
        assert.equal(got.status, 400, name);
        assert.ok(
          got.headers.some(([n, v]) => n === 'x-stack-known-error' && v === 'BODY_PARSING_ERROR'),
          name,
        );
      }
    });

    it('runs the cookie bridge inside the answer: every entry sets the HttpOnly cookie and swaps the refresh token for a placeholder', async () => {
      const email = 'bridge@example.com';
      const password = 'a long enough password 1';
      const headers = {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': SEED.publishableClientKey,
        'content-type': 'application/json',
        'x-gatehouse-cookie-bridge': '1',
      };
      for (const [name, send] of entries) {
        const up = await send({
          method: 'POST',
          path: '/api/v1/auth/password/sign-up',
          headers,
          body: JSON.stringify({ email, password }),
        });
        assert.equal(up.status, 200, `${name}: ${up.body}`);
        const cookie = up.headers.find(([n]) => n === 'set-cookie')?.[1] ?? '';
        assert.match(cookie, /^gatehouse-refresh-internal=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/, name);
        const placeholder = (JSON.parse(up.body) as { refresh_token: string }).refresh_token;
        assert.match(placeholder, /^gatehouse-httponly-cookie\.[0-9a-f]{16}$/, name);
        // The placeholder in a header becomes the cookie's token: the refresh works.
        const refreshed = await send({
          method: 'POST',
          path: '/api/v1/auth/sessions/current/refresh',
          headers: { ...headers, cookie: cookie.split(';')[0]!, 'x-stack-refresh-token': placeholder },
          body: '{}',
        });
        assert.equal(refreshed.status, 200, `${name}: ${refreshed.body}`);
        const out = await send({
          method: 'DELETE',
          path: '/api/v1/auth/sessions/current',
          headers: {
            ...headers,
            cookie: cookie.split(';')[0]!,
            'x-stack-refresh-token': placeholder,
            'x-stack-access-token': (JSON.parse(refreshed.body) as { access_token: string }).access_token,
          },
          body: '{}',
        });
        assert.match(
          out.headers.find(([n]) => n === 'set-cookie')?.[1] ?? '',
          /^gatehouse-refresh-internal=; Max-Age=0;/,
          `${name}: ${out.status} ${out.body} ${JSON.stringify(out.headers)}`,
        );
      }
    });

    it('leaves pages to the pages app: /health, hosted pages, and the host app outside the mount', async () => {
      assert.equal((await viaHttp(nodeUrl, { method: 'GET', path: '/health', headers: {} })).status, 200);
      assert.equal((await viaHttp(koaUrl, { method: 'GET', path: '/handler/sign-in', headers: {} })).status, 200);
      const web = await gatehouses[2]!.fetch(new Request('http://localhost/handler/sign-in'));
      assert.equal(web.status, 200);
      assert.match(web.headers.get('content-type') ?? '', /^text\/html/);
    });
    // Last: the generated requests change the internal project (its config, users, keys).
    it('gives the same answer (status, every header but date and framing, body) for every operation of the registry', async (t) => {
      let identical = 0;
      const generated: string[] = [];
      for (const op of operations) {
        const sent = generatedRequest(op);
        const label = `${op.id}: ${sent.method} ${sent.path}`;
        clock.advance(1000);
        const answers: Got[] = [];
        for (const [name, send] of entries) answers.push(withoutRequestId(await send(sent), `${label} via ${name}`));
        const [first] = answers as [Got];
        assert.ok(!(first.status === 404 && first.body === NOT_FOUND_TEXT), `${label} reaches its operation`);
        if (answers.every((a) => JSON.stringify(a) === JSON.stringify(first))) {
          identical++;
          continue;
        }
        generated.push(op.id);
        for (const [index, got] of answers.entries())
          assert.deepEqual(withoutGenerated(got), withoutGenerated(first), `${label}: ${entries[index]![0]} answers as node:http`);
      }
      assert.equal(identical + generated.length, operations.length);
      t.diagnostic(
        `byte-identical: ${identical} of ${operations.length}; equal but for generated ids, tokens and times: ${generated.join(', ')}`,
      );
      // Most answers are byte-identical; the others differ only in values each Gatehouse generates.
      assert.ok(
        identical > operations.length * 0.8,
        `byte-identical: ${identical} of ${operations.length}; with generated values: ${generated.join(', ')}`,
      );
    });
  });
}

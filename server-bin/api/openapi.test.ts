import assert from 'node:assert/strict';
import { SCIM_ENDPOINTS } from '../../core/index.ts';
import { IDENTITY_PROVIDER_ENDPOINTS } from '../oidc/endpoints.ts';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { operations } from '../../core/operations/registry.ts';
import { openApiPath, OUTPUT_MISSING } from '../../scripts/openapi/document.ts';
import { openApiText } from '../../scripts/gen-openapi.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, any>>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { name: string }> };
};

describeWithServer('GET /api/v1/openapi.json', (server) => {
  it('is public, cached, and the same as the generator gives for the registry (docs/openapi.json is not stale)', async () => {
    // Generated first: it takes seconds under load, longer than node:http keeps an idle connection.
    const expected = openApiText();
    const res = await fetch(`${server().url}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    const etag = res.headers.get('etag');
    assert.ok(etag);
    const text = await res.text();
    assert.ok(text === expected, 'docs/openapi.json is stale: run `npm run gen:api` and commit it');
    const again = await fetch(`${server().url}/api/v1/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const latest = await fetch(`${server().url}/api/latest/openapi.json`);
    assert.equal(latest.status, 200);
    assert.equal(await latest.text(), text);
  });

  it('lists every registry operation with its method, path, access, input and output', async () => {
    const doc = (await (await fetch(`${server().url}/api/v1/openapi.json`)).json()) as Doc;
    assert.equal(doc.openapi, '3.1.0');
    let count = 0;
    for (const item of Object.values(doc.paths)) count += Object.keys(item).length;
    // The SCIM 2.0 endpoints (server-bin/api/scim.ts) and the identity provider's (server-bin/oidc)
    // are served outside the registry and listed too.
    assert.equal(
      count,
      operations.length + SCIM_ENDPOINTS.length + IDENTITY_PROVIDER_ENDPOINTS.length,
      'one OpenAPI operation per registry operation, SCIM endpoint and identity-provider endpoint',
    );
    for (const endpoint of IDENTITY_PROVIDER_ENDPOINTS) {
      const path = endpoint.root ? endpoint.path : `/api/v1/projects/{project_id}/oidc${endpoint.path}`;
      const entry = doc.paths[path]?.[endpoint.method.toLowerCase()];
      assert.ok(entry, `identity provider ${endpoint.method} ${path} missing`);
      assert.deepEqual(entry.tags, ['oidc']);
      assert.ok(entry.parameters.some((p: { name: string }) => p.name === 'project_id'));
    }
    for (const endpoint of SCIM_ENDPOINTS) {
      const entry = doc.paths[`/api/v1/scim/v2/{team_id}${endpoint.path}`]?.[endpoint.method.toLowerCase()];
      assert.ok(entry, `SCIM ${endpoint.method} ${endpoint.path} missing`);
      assert.deepEqual(entry.security, [{ scimBearer: [] }]);
    }
    for (const op of operations) {
      const entry = doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
      assert.ok(entry, `${op.id}: ${op.method} ${openApiPath(op.path)} missing`);
      assert.equal(entry.operationId, op.id);
      assert.equal(entry.summary, op.summary);
      assert.ok(typeof entry.description === 'string' && entry.description.length > 0, `${op.id} has no description`);
      // Access: public operations need no headers; the others name the x-stack-* headers.
      if (op.access === 'public') assert.deepEqual(entry.security, []);
      else {
        assert.ok(entry.security.length > 0, `${op.id} has no security`);
        for (const requirement of entry.security)
          for (const scheme of Object.keys(requirement)) assert.match(doc.components.securitySchemes[scheme]!.name, /^x-stack-/);
      }
      // Input: every path parameter, every named query parameter, the body schema.
      const params = (entry.parameters ?? []) as Array<{ name: string; in: string; schema: unknown }>;
      for (const m of op.path.matchAll(/:([A-Za-z0-9_]+)/g))
        assert.ok(
          params.some((p) => p.in === 'path' && p.name === m[1]),
          `${op.id} lacks path parameter ${m[1]}`,
        );
      const queryNames = Object.keys((op.input.query as { entries?: object } | undefined)?.entries ?? {});
      for (const name of queryNames)
        assert.ok(
          params.some((p) => p.in === 'query' && p.name === name),
          `${op.id} lacks query parameter ${name}`,
        );
      if (op.input.body && !op.ignoresBody)
        assert.ok(entry.requestBody?.content?.['application/json']?.schema, `${op.id} lacks its body schema`);
      // Output: the success response carries the declared schema; the rest carry the marker.
      const success = entry.responses[op.created ? '201' : '200'] ?? entry.responses['307'];
      assert.ok(success, `${op.id} has no success response`);
      if (op.output) {
        assert.ok(success.content || success.headers?.location, `${op.id}: success response has no schema`);
        assert.equal(entry[OUTPUT_MISSING], undefined);
      } else {
        assert.equal(entry[OUTPUT_MISSING], true, `${op.id} lacks an output and is not marked`);
      }
      // Errors: each declared known error is listed.
      assert.deepEqual(
        entry['x-known-errors'].map((e: { code: string }) => e.code),
        [...op.errors],
      );
      for (const code of op.errors)
        assert.ok(
          Object.values(entry.responses).some((r: any) => String(r.description).includes(code)),
          `${op.id}: ${code} not in responses`,
        );
    }
    // Shared objects are components, referred to by $ref.
    assert.ok(doc.components.schemas.ServerUser);
    assert.equal(
      doc.paths['/api/v1/users/{user_id}']!.get!.responses['200'].content['application/json'].schema.$ref,
      '#/components/schemas/ServerUser',
    );
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      assert.ok(doc.components.schemas[ref[1]!], `dangling $ref ${ref[1]}`);
  });
});

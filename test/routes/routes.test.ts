import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { operations } from '../../core/operations/registry.ts';
import { ROUTES_FILE, routesSource } from '../../scripts/gen-routes.ts';
import { ROUTES, routePath } from '../../sdk/routes.ts';
import { handWrittenRoutes } from './scan.ts';

/**
 * The SDK and the dashboard call the API by operation id through
 * sdk/generated/routes.ts, which is generated from the registry and must not be stale.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** Test helpers beside the sources: fake transports that answer wire paths, as tests do. */
const TEST_HELPERS = new Set(['sdk/test-support.ts', 'ui/dashboard/test-harness.tsx', 'ui/test-dom.tsx', 'ui/component-test-app.tsx']);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return path === 'sdk/generated' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') && !TEST_HELPERS.has(path) ? [path] : [];
  });
}

describe('generated routes (sdk/generated/routes.ts)', () => {
  it('is what scripts/gen-routes.ts writes from the registry (run `npm run gen:routes`)', () => {
    assert.equal(readFileSync(ROUTES_FILE, 'utf8'), routesSource(operations));
  });

  it('has every operation with its method and path, and nothing else', () => {
    assert.deepEqual(
      Object.fromEntries(Object.entries(ROUTES).map(([id, r]) => [id, `${r.method} ${r.path}`])),
      Object.fromEntries(operations.map((op) => [op.id, `${op.method} ${op.path}`])),
    );
  });

  it('a changed registry gives a different file (the staleness check can fail)', () => {
    const renamed = operations.map((op, i) => (i === 0 ? { ...op, path: `${op.path}-moved` } : op));
    assert.notEqual(routesSource(renamed), routesSource(operations));
  });

  it('routePath fills and encodes the template, and refuses a missing parameter', () => {
    assert.equal(routePath('users.getCurrent'), '/users/me');
    assert.equal(routePath('teams.addMember', { team_id: 't 1', user_id: 'u/2' }), '/team-memberships/t%201/u%2F2');
    assert.throws(() => routePath('users.get', {}), /user_id/);
  });
});

describe('no hand-written API routes in sdk/ and ui/', () => {
  it('the scan finds method + path pairs and operation paths, and ignores other paths and comments', () => {
    assert.equal(handWrittenRoutes(`api.call('GET', '/users/me')`, operations).length, 2);
    assert.deepEqual(handWrittenRoutes('const p = `/team-memberships/${a}/${b}`;', operations), ['`/team-memberships/${a}/${b}`']);
    assert.equal(handWrittenRoutes('new URL(`${base}/api/v1/auth/oauth/authorize/${p}`)', operations).length, 1);
    assert.deepEqual(
      handWrittenRoutes(`const page = '/handler/sign-in'; // GET '/users/me'\n/** \`PATCH /users/{id}\` */`, operations),
      [],
    );
  });

  it('every non-test file of sdk/ and ui/ calls by operation id', () => {
    const files = [...sources('sdk'), ...sources('ui')];
    assert.ok(
      files.includes('sdk/client-app.ts') && files.includes('ui/dashboard/pages/users.tsx'),
      'the scan reads the SDK and the dashboard',
    );
    const offenders: Record<string, string[]> = {};
    for (const path of files) {
      const hits = handWrittenRoutes(readFileSync(join(ROOT, path), 'utf8'), operations);
      if (hits.length) offenders[path] = hits;
    }
    assert.deepEqual(
      offenders,
      {},
      'call the API with op(id, {params, query, body}) (sdk/routes.ts), or build URLs with routePath(id, params)',
    );
  });
});

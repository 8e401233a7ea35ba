import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Router from '@koa/router';
import { createApiRoutes } from './routes.ts';
import { operations } from '../../core/index.ts';

describe('API route table', () => {
  it('finds the operation @koa/router would match (its public match API), for every route, method and spelling', () => {
    const routes = createApiRoutes(operations);
    const router = new Router();
    for (const op of operations) router.register(op.path === '/' ? '/api/v1' : `/api/v1${op.path}`, [op.method], () => {});
    let compared = 0;
    const values = ['value', 'a%2Fb', 'caf%C3%A9', 'bad%E0%A4%A', 'a+b', 'x.json'];
    for (const op of operations) {
      for (const value of values) {
        const concrete = op.path.replace(/:([a-z_]+)/gi, (_, name: string) => `${name}-${value}`);
        const spellings = [
          `/api/v1${concrete === '/' ? '' : concrete}`,
          `/api/latest${concrete}`,
          `/api/v1${concrete}/`.replace(/\/\/$/, '/'),
          `/API/V1${concrete.toUpperCase()}`,
          `/api/v1${concrete}//`,
          `/api/v1/${concrete}`,
        ];
        for (const path of spellings) {
          for (const method of ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE']) {
            const routed = path.replace(/^\/api\/latest/, '/api/v1');
            const expected = router.match(routed, method).pathAndMethod[0];
            const found = routes.find(method, path);
            const expectedOp = expected ? operations[router.stack.indexOf(expected)] : undefined;
            assert.equal(found?.op.id, expectedOp?.id, `${method} ${path}`);
            if (expected && found)
              assert.deepEqual(found.params, { ...expected.params(routed, expected.captures(routed)) }, `${method} ${path}: params`);
            compared++;
          }
        }
      }
    }
    assert.ok(compared > operations.length * 100);
    assert.equal(routes.find('GET', '/api/v1users/me'), null);
    assert.equal(routes.find('GET', '/api/v2/users/me'), null);
    assert.equal(routes.find('GET', '/api/latestx/users/me'), null);
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';

/**
 * `GET /users?limit=99999999999999999999999` answered 500 (the number reached
 * the database). Every listing with a `limit` bounds it: upstream's maximum where it has one
 * (permission definitions 200, the email outbox 100), else LIST_LIMIT_MAX (10,000); beyond,
 * SCHEMA_ERROR (or upstream's own plain 400 for the outbox).
 */
const HUGE = '99999999999999999999999';

describeWithServer('bounded list limits', (get) => {
  it("answers SCHEMA_ERROR, never a 500, for a limit beyond each listing's maximum", async () => {
    const server = get();
    const p = await createProject(server);
    for (const path of [
      `/users?limit=${HUGE}`,
      '/users?limit=10001',
      `/teams?limit=${HUGE}`,
      '/teams?limit=10001',
      `/team-permission-definitions?limit=${HUGE}`,
      '/team-permission-definitions?limit=201',
      `/project-permission-definitions?limit=${HUGE}`,
      '/users?limit=0',
    ]) {
      const res = await api(server, 'GET', path, p.admin);
      assertKnownError(res, 'SCHEMA_ERROR', 400);
    }
    assert.match((await api(server, 'GET', `/users?limit=${HUGE}`, p.admin)).body.error, /must be at most 10000/);
    const outbox = await api(server, 'GET', `/emails/outbox?limit=${HUGE}`, p.admin);
    assert.equal(outbox.status, 400, outbox.text);
    assert.equal((await api(server, 'GET', `/internal/payments/transactions?limit=${HUGE}`, p.admin)).status, 400);
  });

  it('serves a page at each maximum', async () => {
    const server = get();
    const p = await createProject(server);
    for (const path of [
      '/users?limit=10000',
      '/teams?limit=10000',
      '/team-permission-definitions?limit=200',
      '/emails/outbox?limit=100',
      '/internal/payments/transactions?limit=200',
    ]) {
      const res = await api(server, 'GET', path, p.admin);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
    }
  });
});

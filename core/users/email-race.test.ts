import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';

describeWithServer('concurrent sign-ups with one email', (get) => {
  it('lets exactly one succeed and answers USER_EMAIL_ALREADY_EXISTS to the others, never a 500', async () => {
    const server = get();
    const p = await createProject(server);
    const results = await Promise.all(Array.from({ length: 6 }, () =>
      api(server, 'POST', '/auth/password/sign-up', p.client, { email: 'race@example.com', password: 'correct horse battery' })));
    assert.equal(results.filter((r) => r.status === 200).length, 1, results.map((r) => r.status).join(','));
    for (const r of results.filter((x) => x.status !== 200)) assert.equal(r.body.code, 'USER_EMAIL_ALREADY_EXISTS');
  });
});

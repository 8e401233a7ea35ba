import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KnownError } from '../index.ts';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';

describeWithCore('concurrent sign-ups with one email', (get) => {
  it('lets exactly one succeed and refuses the others with USER_EMAIL_ALREADY_EXISTS, never an unexpected error', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        t.core.invoke('authPassword.signUp', p.client, { body: { email: 'race@example.com', password: 'correct horse battery' } }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, results.map((r) => r.status).join(','));
    for (const r of results) {
      if (r.status === 'rejected')
        assert.ok(r.reason instanceof KnownError && r.reason.code === 'USER_EMAIL_ALREADY_EXISTS', String(r.reason));
    }
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';

// Upstream's https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/internal/component-versions.test.ts.

describeWithServer('GET /internal/component-versions', (get) => {
  it('answers every page component with a numeric version and its changelogs, without auth', async () => {
    const res = await fetch(`${get().url}/api/v1/internal/component-versions`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { versions: Record<string, { version: number; changelogs: Record<string, string> }> };
    for (const page of [
      'signIn',
      'signUp',
      'signOut',
      'emailVerification',
      'passwordReset',
      'forgotPassword',
      'oauthCallback',
      'magicLinkCallback',
      'accountSettings',
      'teamInvitation',
      'mfa',
      'error',
      'onboarding',
    ]) {
      assert.equal(typeof body.versions[page]?.version, 'number', page);
      assert.deepEqual(body.versions[page]!.changelogs, { 1: 'Initial version.' });
    }
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';

// ACCESS_TYPE_REQUIRED in upstream's words, second paragraph included (upstream
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/users.test.ts "should not be able to read own user").

describeWithServer('ACCESS_TYPE_REQUIRED', (get) => {
  it("answers upstream's exact status, code, header and two-paragraph text", async () => {
    const res = await fetch(`${get().url}/api/v1/users/me`);
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('x-stack-known-error'), 'ACCESS_TYPE_REQUIRED');
    assert.deepEqual(await res.json(), {
      code: 'ACCESS_TYPE_REQUIRED',
      error:
        "You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication",
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialsFromHeaders, stackHeader } from './credentials.ts';

describe('credentials from request headers', () => {
  it('reads every credential under either prefix, x-stack- first, empty values as absent', () => {
    assert.deepEqual(
      credentialsFromHeaders({
        'x-stack-access-type': 'server',
        'x-hexclave-project-id': 'p1',
        'x-stack-branch-id': 'main',
        'x-stack-publishable-client-key': '',
        'x-hexclave-publishable-client-key': 'pck',
        'x-stack-secret-server-key': 'ssk',
        'x-hexclave-super-secret-admin-key': 'sak',
        'x-stack-admin-access-token': 'aat',
        'x-hexclave-access-token': 'at',
        'x-stack-refresh-token': 'rt',
        'x-stack-allow-anonymous-user': 'true',
        'x-hexclave-allow-restricted-user': 'true',
      }),
      {
        accessType: 'server',
        projectId: 'p1',
        branchId: 'main',
        publishableClientKey: 'pck',
        secretServerKey: 'ssk',
        superSecretAdminKey: 'sak',
        adminAccessToken: 'aat',
        accessToken: 'at',
        refreshToken: 'rt',
        allowAnonymousUser: true,
        allowRestrictedUser: true,
      },
    );
    assert.equal(stackHeader({ 'x-stack-project-id': 'a', 'x-hexclave-project-id': 'b' }, 'project-id'), 'a');
  });

  it('passes an unknown access type through unchecked (core answers INVALID_ACCESS_TYPE) and takes only "true" as a flag', () => {
    assert.deepEqual(
      credentialsFromHeaders({ 'x-stack-access-type': 'root', 'x-stack-allow-anonymous-user': 'yes', 'x-stack-refresh-token': '' }),
      { accessType: 'root' },
    );
    // The Authorization header is carried as it is, for the operator-secret routes (cron, email monitor) only:
    // it is never an access token or a key.
    assert.deepEqual(credentialsFromHeaders({ authorization: 'Bearer x', 'content-type': 'application/json' }), {
      authorization: 'Bearer x',
    });
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AnyOperation } from './define.ts';
import { operations } from './registry.ts';
import { serverCapabilities } from './capabilities.ts';

it('turns a capability on only when its route is registered, whatever its parameter is named', () => {
  const op = (method: string, path: string) => ({ id: path, method, path }) as unknown as AnyOperation;
  assert.deepEqual(serverCapabilities([]), { passkey: false, oauth: false, mfa: false });
  assert.deepEqual(serverCapabilities([op('GET', '/auth/oauth/authorize/:provider')]), { passkey: false, oauth: true, mfa: false });
  assert.deepEqual(
    serverCapabilities([
      op('POST', '/auth/oauth/authorize/:provider_id'),
      op('POST', '/auth/passkey/initiate-passkey-authentication'),
      op('POST', '/auth/mfa/sign-in'),
    ]),
    { passkey: true, oauth: false, mfa: true },
  );
  const fromRegistry = serverCapabilities(operations);
  assert.equal(
    fromRegistry.oauth,
    operations.some((o) => o.path.startsWith('/auth/oauth/authorize')),
  );
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { createApiKeySecret, parseApiKeySecret } from './secret.ts';

const ID = '3f2b9c1e-8a4d-4e6f-9b0a-1c2d3e4f5a6b';

describe('API key secrets', () => {
  it('builds the upstream apps/backend/src/app/api/latest/user-api-keys/ format with a CRC32 over everything before it', () => {
    const secret = createApiKeySecret({ id: ID, type: 'user', isPublic: false });
    assert.match(secret, /^sk_[0-9a-z]{45}3f2b9c1e8a4d4e6f9b0a1c2d3e4f5a6buser1574ck4u7h[0-9a-f]{8}$/);
    const expected = crc32(Buffer.from(secret.slice(0, -8), 'utf8'))
      .toString(16)
      .padStart(8, '0');
    assert.equal(secret.slice(-8), expected);
    const pub = createApiKeySecret({ id: ID, type: 'team', isPublic: true });
    assert.match(pub, /^pk_.{45}3f2b9c1e8a4d4e6f9b0a1c2d3e4f5a6bteam3574ck4u7h[0-9a-f]{8}$/);
  });

  it('parses its own keys and rejects any one-character change', () => {
    const secret = createApiKeySecret({ id: ID, type: 'team', isPublic: true });
    assert.deepEqual(parseApiKeySecret(secret), { id: ID, type: 'team', isPublic: true });
    for (const i of [0, 3, 10, 50, 80, secret.length - 12, secret.length - 1]) {
      const c = secret[i] === 'a' ? 'b' : 'a';
      const changed = secret.slice(0, i) + c + secret.slice(i + 1);
      assert.equal(parseApiKeySecret(changed), null, `change at ${i} must fail`);
    }
    assert.equal(parseApiKeySecret('sk_short'), null);
  });
});

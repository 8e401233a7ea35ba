import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError } from '../helpers/api.ts';
import type { Caller } from '../helpers/api.ts';
import type { TestServer } from '../helpers/server.ts';
import { SDKS, errorCodeOf, sdkApps } from './helpers.ts';

const SECRET = "the app's own data vault secret";

/** Creates data-vault stores through the environment-level config override, as Stack's docs do. */
async function createStores(server: TestServer, admin: Caller, ids: string[]) {
  const res = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
    config_override_string: JSON.stringify(Object.fromEntries(ids.map((id) => [`dataVault.stores.${id}`, { displayName: `Store ${id}` }]))),
  });
  assert.equal(res.status, 200, res.text);
}

/** The SQLite database file and its write-ahead log, as bytes (what a stolen disk would show). */
function sqliteBytes(server: TestServer): Buffer {
  const file = server.database.databaseUrl.replace(/^(sqlite|file):/, '');
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

for (const sdk of SDKS) {
  describeWithServer(`data vault through ${sdk.name}`, (get) => {
    it('round-trips a value in a store created through the environment override, and reads null for a missing key', async () => {
      const server = get();
      const { project, serverApp } = await sdkApps(server, sdk.module);
      await createStores(server, project.admin, ['s1', 's2']);
      const store = await serverApp.getDataVaultStore('s1');
      await store.setValue('user-123', 'card ending 4242', { secret: SECRET });
      assert.equal(await store.getValue('user-123', { secret: SECRET }), 'card ending 4242');
      assert.equal(await store.getValue('user-999', { secret: SECRET }), null);
      await store.setValue('user-123', 'card ending 1881', { secret: SECRET });
      assert.equal(await (await serverApp.getDataVaultStore('s1')).getValue('user-123', { secret: SECRET }), 'card ending 1881');

      // Stores and projects are isolated: the same key is absent elsewhere.
      assert.equal(await (await serverApp.getDataVaultStore('s2')).getValue('user-123', { secret: SECRET }), null);
      const other = await sdkApps(server, sdk.module);
      await createStores(server, other.project.admin, ['s1']);
      assert.equal(await (await other.serverApp.getDataVaultStore('s1')).getValue('user-123', { secret: SECRET }), null);

      const stores = await api(server, 'GET', '/internal/data-vault/stores', project.admin);
      assert.deepEqual(stores.body, {
        items: [
          { id: 's1', display_name: 'Store s1', entry_count: 1 },
          { id: 's2', display_name: 'Store s2', entry_count: 0 },
        ],
      });
    });

    it('refuses a store that is not configured with DATA_VAULT_STORE_DOES_NOT_EXIST', async () => {
      const server = get();
      const { project, serverApp } = await sdkApps(server, sdk.module);
      const store = await serverApp.getDataVaultStore('nope');
      await assert.rejects(
        store.setValue('k', 'v', { secret: SECRET }),
        (e: unknown) => errorCodeOf(e) === 'DATA_VAULT_STORE_DOES_NOT_EXIST',
      );
      await assert.rejects(store.getValue('k', { secret: SECRET }), (e: unknown) => errorCodeOf(e) === 'DATA_VAULT_STORE_DOES_NOT_EXIST');
      assertKnownError(
        await api(server, 'POST', '/data-vault/stores/nope/get', { ...project.server }, { hashed_key: 'h' }),
        'DATA_VAULT_STORE_DOES_NOT_EXIST',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/data-vault/stores/nope/get', { ...project.client }, { hashed_key: 'h' }),
        'INSUFFICIENT_ACCESS_TYPE',
        401,
      );
    });
  });
}

describeWithServer('data vault at rest', (get, dialect) => {
  it("keeps neither the plaintext nor the SDK's encrypted value in the database file", async (t) => {
    if (dialect !== 'sqlite') return t.diagnostic('file check runs on SQLite');
    const server = get();
    const { project, serverApp } = await sdkApps(server, SDKS[0].module);
    await createStores(server, project.admin, ['vault']);
    const plaintext = 'PLAINTEXT-MARKER-5f2c9a';
    await (await serverApp.getDataVaultStore('vault')).setValue('k1', plaintext, { secret: SECRET });
    const sdkCiphertext = 'SDK-CIPHERTEXT-MARKER-8d1e77';
    const direct = await api(server, 'POST', '/data-vault/stores/vault/set', project.server, {
      hashed_key: 'hash-1',
      encrypted_value: sdkCiphertext,
    });
    assert.equal(direct.status, 200, direct.text);
    assert.deepEqual((await api(server, 'POST', '/data-vault/stores/vault/get', project.server, { hashed_key: 'hash-1' })).body, {
      encrypted_value: sdkCiphertext,
    });

    const bytes = sqliteBytes(server);
    assert.ok(bytes.length > 0);
    assert.ok(bytes.includes(Buffer.from('hash-1')), 'the check reads the file the entries are in');
    assert.equal(bytes.includes(Buffer.from(plaintext)), false);
    assert.equal(bytes.includes(Buffer.from(sdkCiphertext)), false);
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import argon2 from 'argon2';
import { createCore } from '../index.ts';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { createMigratedTestDatabase } from '../../test/helpers/dialects.ts';
import { INTERNAL_KEYS } from '../../test/helpers/internal-keys.ts';
import { PASSWORD_HASH_COST, TEST_PASSWORD_HASH_COST } from './hashing.ts';

/**
 * The argon2id cost of new password hashes: the OWASP parameters unless a test suite opens its
 * core with `testPasswordHashing` (the test helpers do, to save about 40 ms of CPU per hash),
 * which the production environment refuses. hash-formats.test.ts checks imported hashes reach
 * the real cost on sign-in.
 */
const PASSWORD = 'correct horse battery';
const phcPrefix = (cost: { memoryCost: number; timeCost: number }) => `$argon2id$v=19$m=${cost.memoryCost},p=1,t=${cost.timeCost}$`;

it('hashes at the OWASP parameters by default (m = 19 MiB, t = 2, p = 1) and at the cheap ones only when a test asks', () => {
  assert.deepEqual(PASSWORD_HASH_COST, { memoryCost: 19456, timeCost: 2 });
  assert.ok(TEST_PASSWORD_HASH_COST.memoryCost < PASSWORD_HASH_COST.memoryCost);
});

it('refuses testPasswordHashing in the production environment, and a core without it runs at the OWASP cost', async () => {
  const database = await createMigratedTestDatabase('sqlite');
  try {
    const storage = database.open();
    await assert.rejects(
      createCore({ storage, baseUrl: 'http://127.0.0.1:1', environment: 'production', testPasswordHashing: true }),
      /testPasswordHashing is a test-only option/,
    );
    await storage.close();
    for (const environment of ['production', 'test'] as const) {
      const core = await createCore({ storage: database.open(), baseUrl: 'http://127.0.0.1:1', environment, smtpUrl: null });
      assert.deepEqual(core.runtime.passwordHashCost, PASSWORD_HASH_COST, environment);
      await core.close();
    }
  } finally {
    await database.drop();
  }
});

describeWithCore('a test core hashes cheaply', (get) => {
  it('stores sign-up hashes at the test cost, and a core at the real cost upgrades them on the next sign-in', async () => {
    const t = get();
    assert.deepEqual(t.core.runtime.passwordHashCost, TEST_PASSWORD_HASH_COST);
    const { client, projectId } = await createCoreProject(t);
    const user = await t.call<{ user_id: string }>('authPassword.signUp', client, {
      body: { email: 'cheap@example.com', password: PASSWORD },
    });
    const stored = async () =>
      (
        await t.core.runtime.db
          .selectFrom('users')
          .select('password_hash')
          .where('project_id', '=', projectId)
          .where('id', '=', user.user_id)
          .executeTakeFirstOrThrow()
      ).password_hash ?? '';
    assert.ok((await stored()).startsWith(phcPrefix(TEST_PASSWORD_HASH_COST)), await stored());
    assert.equal(await argon2.verify(await stored(), PASSWORD), true);
    await t.call('authPassword.signIn', client, { body: { email: 'cheap@example.com', password: PASSWORD } });
    assert.ok((await stored()).startsWith(phcPrefix(TEST_PASSWORD_HASH_COST)), 'no rehash at the same cost');
    // The same database opened by a core at the real cost, as a server after such a test would be.
    const real = await createCore({
      storage: t.database.open(),
      baseUrl: 'http://127.0.0.1:1',
      secret: 'test-secret-do-not-use-in-production',
      environment: 'test',
      seedKeys: INTERNAL_KEYS,
      smtpUrl: null,
    });
    try {
      await real.invoke('authPassword.signIn', client, { body: { email: 'cheap@example.com', password: PASSWORD } });
      assert.ok((await stored()).startsWith(phcPrefix(PASSWORD_HASH_COST)), await stored());
    } finally {
      await real.close();
    }
  });
});

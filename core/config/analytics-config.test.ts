import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';

// Upstream's answers: https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/analytics-config.test.ts
// (stack-auth/stack-auth); defaults from https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts.
// In-process (test/helpers/core-client.ts); the config routes' wire shapes are test/routes' to check.

/** The rendered config (`config.get`, parsed `config_string`). */
async function rendered(t: TestCore, admin: Credentials) {
  return JSON.parse((await t.call<{ config_string: string }>('config.get', admin)).config_string);
}

/** `config.updateOverride` at `level` with `value` as the override string. */
const patch = (t: TestCore, admin: Credentials, level: string, value: unknown) =>
  t.call('config.updateOverride', admin, { params: { level }, body: { config_override_string: JSON.stringify(value) } });

describeWithCore('analytics config keys', (get) => {
  it("renders an empty analytics object, then stores folders and queries with upstream's defaults", async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    assert.deepEqual((await rendered(t, admin)).analytics, { queryFolders: {} });

    await patch(t, admin, 'environment', {
      'analytics.queryFolders.test-folder-1': { displayName: 'Test Folder', sortOrder: 0, queries: {} },
    });
    assert.deepEqual((await rendered(t, admin)).analytics.queryFolders['test-folder-1'], {
      displayName: 'Test Folder',
      sortOrder: 0,
      queries: {},
    });

    await patch(t, admin, 'environment', {
      'analytics.queryFolders.test-folder-1.queries.q1': {
        displayName: 'Test Query',
        sqlQuery: 'SELECT * FROM events LIMIT 10',
        description: 'A test query',
      },
    });
    await patch(t, admin, 'environment', { 'analytics.queryFolders.f2': { queries: { q2: {} } } });
    const config = await rendered(t, admin);
    assert.deepEqual(config.analytics.queryFolders['test-folder-1'].queries.q1, {
      displayName: 'Test Query',
      sqlQuery: 'SELECT * FROM events LIMIT 10',
      description: 'A test query',
    });
    assert.deepEqual(config.analytics.queryFolders.f2, {
      displayName: 'Unnamed Folder',
      sortOrder: 0,
      queries: { q2: { displayName: 'Unnamed Query', sqlQuery: '' } },
    });

    await patch(t, admin, 'environment', { 'analytics.queryFolders.test-folder-1': null });
    assert.equal((await rendered(t, admin)).analytics.queryFolders['test-folder-1'], undefined);
  });

  it('keeps analytics at the environment level: the branch level refuses it and a branch push leaves it', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    await patch(t, admin, 'environment', {
      'analytics.queryFolders.kept': { displayName: 'Kept', queries: { q: { displayName: 'Q', sqlQuery: "SELECT 'kept'" } } },
    });
    const env = await t.call<{ config_string: string }>('config.getOverride', admin, { params: { level: 'environment' } });
    assert.ok(JSON.parse(env.config_string)['analytics.queryFolders.kept']);
    await refusesWithStatus(
      t,
      'config.updateOverride',
      admin,
      {
        params: { level: 'branch' },
        body: { config_override_string: JSON.stringify({ 'analytics.queryFolders.x': { displayName: 'X' } }) },
      },
      'bad-request',
      'The key "analytics.queryFolders.x" cannot be set at the branch level (allowed at: environment).',
    );
    await t.call('config.setOverride', admin, {
      params: { level: 'branch' },
      body: { config_string: JSON.stringify({ 'teams.allowClientTeamCreation': true }), source: { type: 'unlinked' } },
    });
    assert.deepEqual((await rendered(t, admin)).analytics.queryFolders.kept, {
      displayName: 'Kept',
      sortOrder: 0,
      queries: { q: { displayName: 'Q', sqlQuery: "SELECT 'kept'" } },
    });
  });
});

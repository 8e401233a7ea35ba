import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';
import { patchConfigOverride, renderedConfig } from '../../test/helpers/config.ts';

// Upstream's answers: https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/analytics-config.test.ts
// (stack-auth/stack-auth); defaults from https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/config/schema.ts.

const rendered = renderedConfig;
const patch = patchConfigOverride;

describeWithServer('analytics config keys (issue 34 item 4)', (get) => {
  it("renders an empty analytics object, then stores folders and queries with upstream's defaults", async () => {
    const server = get();
    const { admin } = await createProject(server);
    assert.deepEqual((await rendered(server, admin)).analytics, { queryFolders: {} });

    let res = await patch(server, admin, 'environment', {
      'analytics.queryFolders.test-folder-1': { displayName: 'Test Folder', sortOrder: 0, queries: {} },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await rendered(server, admin)).analytics.queryFolders['test-folder-1'], {
      displayName: 'Test Folder',
      sortOrder: 0,
      queries: {},
    });

    res = await patch(server, admin, 'environment', {
      'analytics.queryFolders.test-folder-1.queries.q1': {
        displayName: 'Test Query',
        sqlQuery: 'SELECT * FROM events LIMIT 10',
        description: 'A test query',
      },
    });
    assert.equal(res.status, 200, res.text);
    res = await patch(server, admin, 'environment', { 'analytics.queryFolders.f2': { queries: { q2: {} } } });
    assert.equal(res.status, 200, res.text);
    const config = await rendered(server, admin);
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

    res = await patch(server, admin, 'environment', { 'analytics.queryFolders.test-folder-1': null });
    assert.equal(res.status, 200, res.text);
    assert.equal((await rendered(server, admin)).analytics.queryFolders['test-folder-1'], undefined);
  });

  it('keeps analytics at the environment level: the branch level refuses it and a branch push leaves it', async () => {
    const server = get();
    const { admin } = await createProject(server);
    assert.equal(
      (
        await patch(server, admin, 'environment', {
          'analytics.queryFolders.kept': { displayName: 'Kept', queries: { q: { displayName: 'Q', sqlQuery: "SELECT 'kept'" } } },
        })
      ).status,
      200,
    );
    const env = await api(server, 'GET', '/internal/config/override/environment', admin);
    assert.ok(JSON.parse(env.body.config_string)['analytics.queryFolders.kept']);
    assert.equal((await patch(server, admin, 'branch', { 'analytics.queryFolders.x': { displayName: 'X' } })).status, 400);
    const put = await api(server, 'PUT', '/internal/config/override/branch', admin, {
      config_string: JSON.stringify({ 'teams.allowClientTeamCreation': true }),
      source: { type: 'unlinked' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual((await rendered(server, admin)).analytics.queryFolders.kept, {
      displayName: 'Kept',
      sortOrder: 0,
      queries: { q: { displayName: 'Q', sqlQuery: "SELECT 'kept'" } },
    });
  });
});

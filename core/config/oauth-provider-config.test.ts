import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject } from '../../test/helpers/api.ts';

// Upstream's answer: https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/projects.test.ts ("create google oauth
// provider with shared type"): each `config.oauth_providers` entry carries `provider_config_id`,
// the provider's key in `auth.oauth.providers`.

describeWithServer('project config OAuth providers carry provider_config_id (issue 34 item 2)', (get) => {
  it('answers provider_config_id beside id for shared and standard providers', async () => {
    const server = get();
    const { admin } = await createProject(server);
    let res = await api(server, 'PATCH', '/internal/projects/current', admin, {
      config: { oauth_providers: [{ id: 'google', type: 'shared' }] },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.config.oauth_providers.map(({ id, provider_config_id, type }: Record<string, unknown>) => ({
        id,
        provider_config_id,
        type,
      })),
      [{ id: 'google', provider_config_id: 'google', type: 'shared' }],
    );
    res = await api(server, 'PATCH', '/internal/projects/current', admin, {
      config: { oauth_providers: [{ id: 'spotify', type: 'standard', client_id: 'client_id', client_secret: 'client_secret' }] },
    });
    assert.equal(res.status, 200, res.text);
    const entry = res.body.config.oauth_providers.find((p: { id: string }) => p.id === 'spotify');
    assert.equal(entry.provider_config_id, 'spotify');
    assert.equal(entry.client_id, 'client_id');
    assert.equal(entry.type, 'standard');
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';

// Upstream's answer: https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/projects.test.ts ("create google oauth
// provider with shared type"): each `config.oauth_providers` entry carries `provider_config_id`,
// the provider's key in `auth.oauth.providers`. In-process (test/helpers/core-client.ts).

type Provider = { id: string; provider_config_id: string; type: string; client_id?: string };

describeWithCore('project config OAuth providers carry provider_config_id', (get) => {
  it('answers provider_config_id beside id for shared and standard providers', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    let project = await t.call<{ config: { oauth_providers: Provider[] } }>('projects.updateCurrent', admin, {
      body: { config: { oauth_providers: [{ id: 'google', type: 'shared' }] } },
    });
    assert.deepEqual(
      project.config.oauth_providers.map(({ id, provider_config_id, type }) => ({ id, provider_config_id, type })),
      [{ id: 'google', provider_config_id: 'google', type: 'shared' }],
    );
    project = await t.call('projects.updateCurrent', admin, {
      body: { config: { oauth_providers: [{ id: 'spotify', type: 'standard', client_id: 'client_id', client_secret: 'client_secret' }] } },
    });
    const entry = project.config.oauth_providers.find((p) => p.id === 'spotify')!;
    assert.equal(entry.provider_config_id, 'spotify');
    assert.equal(entry.client_id, 'client_id');
    assert.equal(entry.type, 'standard');
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject, createProjectKeys, type Caller } from '../helpers/api.ts';
import { patchConfigOverride } from '../helpers/config.ts';

// The wire form of the config routes' plain-text answers (upstream answers these as text, not
// known errors); their behaviour is tested in-process (core/config/config-routes.test.ts).

describeWithServer('config overrides on the wire', (get) => {
  it('answers bad JSON 400 and server access outside the branch level 403, as plain text', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const badJson = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
      config_override_string: '{ invalid json }',
    });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.text, 'Invalid config JSON');
    assert.equal(badJson.headers.get('x-stack-known-error'), null);
    const keys = await createProjectKeys(server, admin);
    const serverCaller: Caller = { projectId: admin.projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    const refused = await patchConfigOverride(server, serverCaller, 'project', { 'auth.otp.allowSignIn': true });
    assert.equal(refused.status, 403);
    assert.equal(refused.text, 'Server access can only manage branch config overrides.');
  });

  it('answers check-feature-support with 200 text, with or without a project', async () => {
    const server = get();
    const text = 'This feature is not yet supported. Please reach out to Stack support for more information.';
    const named = await api(server, 'POST', '/check-feature-support', {}, { name: 'sendVerificationEmail() on ServerUser' });
    assert.equal(named.status, 200);
    assert.equal(named.text, text);
    const { client } = await createProject(server);
    assert.equal((await api(server, 'POST', '/check-feature-support', client, {})).text, text);
  });
});

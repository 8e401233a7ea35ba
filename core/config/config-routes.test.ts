import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';
import { patchConfigOverride, renderedConfig } from '../../test/helpers/config.ts';
import type { Caller } from '../../test/helpers/api.ts';

const rendered = renderedConfig;

async function override(server: TestServer, caller: Caller, level: string) {
  const res = await api(server, 'GET', `/internal/config/override/${level}`, caller);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.body.config_string);
}

const patch = patchConfigOverride;

describeWithServer('config overrides (issue 16)', (get) => {
  it("renders a new project's config with its creation values and the schema defaults", async () => {
    const server = get();
    const { admin } = await createProject(server);
    const config = await rendered(server, admin);
    assert.deepEqual(config.auth.password, { allowSignIn: true });
    assert.deepEqual(config.auth.otp, { allowSignIn: false });
    assert.equal(config.auth.allowSignUp, true);
    assert.deepEqual(config.domains, { allowLocalhost: true, trustedDomains: {} });
    assert.deepEqual(config.teams, { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false });
    assert.deepEqual(config.rbac.defaultPermissions, { teamCreator: { team_admin: true }, teamMember: { team_member: true }, signUp: {} });
    assert.deepEqual(config.dataVault, { stores: {} });
  });

  it('patches each level, merges project then branch then environment, and resets keys so lower levels show through', async () => {
    const server = get();
    const { admin } = await createProject(server);
    for (const [level, value] of [
      ['project', { 'project.requirePublishableClientKey': true }],
      [
        'branch',
        {
          'teams.allowClientTeamCreation': true,
          'dataVault.stores.s1': { displayName: 'Store one' },
          'auth.oauth.providers.google': { type: 'google', allowSignIn: true, allowConnectedAccounts: true },
        },
      ],
      [
        'environment',
        {
          'teams.allowClientTeamCreation': false,
          'auth.oauth.providers.google.isShared': false,
          'auth.oauth.providers.google.clientId': 'gid',
          'auth.oauth.providers.google.clientSecret': 'gsec',
        },
      ],
    ] as const) {
      const res = await patch(server, admin, level, value);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
    }
    let config = await rendered(server, admin);
    assert.equal(config.project.requirePublishableClientKey, true);
    assert.equal(config.teams.allowClientTeamCreation, false, 'the environment level wins over the branch level');
    assert.deepEqual(config.dataVault.stores, { s1: { displayName: 'Store one' } });
    assert.deepEqual(config.auth.oauth.providers.google, {
      type: 'google',
      allowSignIn: true,
      allowConnectedAccounts: true,
      isShared: false,
      clientId: 'gid',
      clientSecret: 'gsec',
    });
    assert.deepEqual(await override(server, admin, 'project'), { 'project.requirePublishableClientKey': true });
    assert.equal((await override(server, admin, 'branch'))['teams.allowClientTeamCreation'], true);

    const reset = await api(server, 'POST', '/internal/config/override/environment/reset-keys', admin, {
      keys: ['teams.allowClientTeamCreation'],
    });
    assert.equal(reset.status, 200, reset.text);
    assert.deepEqual(reset.body, { success: true });
    config = await rendered(server, admin);
    assert.equal(config.teams.allowClientTeamCreation, true, 'the branch value shows through once the environment key is reset');
    assert.equal(config.auth.oauth.providers.google.clientId, 'gid');

    await api(server, 'POST', '/internal/config/override/branch/reset-keys', admin, { keys: ['teams', 'dataVault.stores.s1'] });
    config = await rendered(server, admin);
    assert.equal(config.teams.allowClientTeamCreation, false);
    assert.deepEqual(config.dataVault.stores, {});
    assertKnownError(await api(server, 'POST', '/internal/config/override/project/reset-keys', admin, { keys: [] }), 'SCHEMA_ERROR', 400);

    // The legacy project object reads the same model.
    const legacy = await api(server, 'GET', '/internal/projects/current', admin);
    assert.equal(legacy.body.config.oauth_providers[0].id, 'google');
    assert.equal(legacy.body.config.oauth_providers[0].type, 'standard');
    assert.equal(legacy.body.config.oauth_providers[0].client_id, 'gid');
  });

  it('replaces a level with PUT, needs a source at the branch level and keeps it until unlinked', async () => {
    const server = get();
    const { admin } = await createProject(server);
    await patch(server, admin, 'branch', { 'teams.allowClientTeamCreation': true, 'users.allowClientUserDeletion': true });
    const noSource = await api(server, 'PUT', '/internal/config/override/branch', admin, { config_string: '{}' });
    assert.equal(noSource.status, 400);
    assert.equal(noSource.text, 'source is required for branch level config');

    const put = await api(server, 'PUT', '/internal/config/override/branch', admin, {
      config_string: JSON.stringify({ 'users.allowClientUserDeletion': true }),
      source: { type: 'pushed-from-unknown' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(await override(server, admin, 'branch'), { 'users.allowClientUserDeletion': true });
    const config = await rendered(server, admin);
    assert.equal(config.teams.allowClientTeamCreation, false);
    assert.equal(config.users.allowClientUserDeletion, true);
    assert.deepEqual((await api(server, 'GET', '/internal/config/source', admin)).body, { source: { type: 'pushed-from-unknown' } });
    assert.deepEqual((await api(server, 'DELETE', '/internal/config/source', admin)).body, { success: true });
    assert.deepEqual((await api(server, 'GET', '/internal/config/source', admin)).body, { source: { type: 'unlinked' } });

    const envPut = await api(server, 'PUT', '/internal/config/override/environment', admin, {
      config_string: JSON.stringify({ 'auth.otp.allowSignIn': true }),
    });
    assert.equal(envPut.status, 200, envPut.text);
    assert.deepEqual(await override(server, admin, 'environment'), { 'auth.otp.allowSignIn': true });
    const after = await rendered(server, admin);
    assert.equal(after.auth.otp.allowSignIn, true);
    assert.equal(after.auth.password.allowSignIn, false, 'the PUT replaced the environment values the project was created with');
  });

  it('answers a bad key, a bad value, a key of another level and bad JSON with a 400 naming the problem', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const unknown = await patch(server, admin, 'environment', { nonExistentField: 'some-value' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, 'The key "nonExistentField" is not valid (nested object not found in schema: "nonExistentField").');
    const badValue = await patch(server, admin, 'branch', { 'auth.password.allowSignIn': 'yes' });
    assert.equal(badValue.status, 400);
    assert.match(badValue.text, /"auth\.password\.allowSignIn" has an invalid value: must be a boolean/);
    const wrongLevel = await patch(server, admin, 'branch', { 'emails.server.password': 'secret' });
    assert.equal(wrongLevel.status, 400);
    assert.match(wrongLevel.text, /"emails\.server\.password" cannot be set at the branch level/);
    const badPort = await patch(server, admin, 'environment', { 'emails.server': { isShared: false, port: 70000 } });
    assert.match(badPort.text, /"emails\.server\.port" has an invalid value: must be between 0 and 65535/);
    const badJson = await api(server, 'PATCH', '/internal/config/override/environment', admin, {
      config_override_string: '{ invalid json }',
    });
    assert.equal(badJson.status, 400);
    assert.equal(badJson.text, 'Invalid config JSON');
    assertKnownError(await api(server, 'GET', '/internal/config/override/organization', admin), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'PATCH', '/internal/config/override/branch', admin, { config_string: '{}' }), 'SCHEMA_ERROR', 400);
    // Nothing was written by the refused requests.
    assert.equal((await rendered(server, admin)).auth.password.allowSignIn, true);
  });

  it('lets server access manage the branch level only, and keeps /internal/config admin-only', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const keys = await createProjectKeys(server, admin);
    const serverCaller: Caller = { projectId: admin.projectId, accessType: 'server', secretServerKey: keys.secretServerKey };
    const clientCaller: Caller = { projectId: admin.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
    for (const level of ['project', 'environment']) {
      for (const res of [
        await api(server, 'GET', `/internal/config/override/${level}`, serverCaller),
        await patch(server, serverCaller, level, { 'auth.otp.allowSignIn': true }),
        await api(server, 'PUT', `/internal/config/override/${level}`, serverCaller, { config_string: '{}' }),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.text, 'Server access can only manage branch config overrides.');
      }
    }
    const ok = await patch(server, serverCaller, 'branch', { 'auth.otp.allowSignIn': true });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await override(server, serverCaller, 'branch'))['auth.otp.allowSignIn'], true);
    assertKnownError(await api(server, 'GET', '/internal/config', serverCaller), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'GET', '/internal/config/override/branch', clientCaller), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(
      await api(server, 'POST', '/internal/config/override/branch/reset-keys', serverCaller, { keys: [] }),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
  });

  it('reads legacy config updates and model overrides back the same, both ways', async () => {
    const server = get();
    const { admin, client } = await createProject(server);
    const legacyUpdate = await api(server, 'PATCH', '/internal/projects/current', admin, {
      config: {
        magic_link_enabled: true,
        domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }],
        oauth_providers: [{ id: 'github', type: 'standard', client_id: 'ghid', client_secret: 'ghsec' }],
        team_member_default_permissions: [{ id: 'team_member' }, { id: 'reader' }],
        email_config: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'u',
          password: 'p',
          sender_name: 'S',
          sender_email: 's@example.com',
        },
      },
    });
    assert.equal(legacyUpdate.status, 200, legacyUpdate.text);
    let config = await rendered(server, admin);
    assert.equal(config.auth.otp.allowSignIn, true);
    assert.deepEqual(Object.values(config.domains.trustedDomains), [{ baseUrl: 'https://app.example.com', handlerPath: '/handler' }]);
    assert.deepEqual(config.auth.oauth.providers.github, {
      type: 'github',
      allowSignIn: true,
      allowConnectedAccounts: true,
      isShared: false,
      clientId: 'ghid',
      clientSecret: 'ghsec',
    });
    assert.deepEqual(config.rbac.defaultPermissions.teamMember, { team_member: true, reader: true });
    assert.deepEqual(config.emails.server, {
      isShared: false,
      host: 'smtp.example.com',
      port: 587,
      username: 'u',
      password: 'p',
      senderName: 'S',
      senderEmail: 's@example.com',
    });

    const res = await patch(server, admin, 'environment', {
      'auth.passkey.allowSignIn': true,
      'auth.otp.allowSignIn': false,
      'domains.trustedDomains.extra': { baseUrl: 'https://other.example.com' },
      'auth.oauth.providers.github.allowSignIn': false,
      'teams.createPersonalTeamOnSignUp': true,
      'onboarding.requireEmailVerification': true,
    });
    assert.equal(res.status, 200, res.text);
    const legacy = (await api(server, 'GET', '/internal/projects/current', admin)).body.config;
    assert.equal(legacy.passkey_enabled, true);
    assert.equal(legacy.magic_link_enabled, false);
    assert.equal(legacy.create_team_on_sign_up, true);
    assert.deepEqual(legacy.domains, [
      { domain: 'https://app.example.com', handler_path: '/handler' },
      { domain: 'https://other.example.com', handler_path: '/handler' },
    ]);
    assert.deepEqual(legacy.oauth_providers, [
      { id: 'github', provider_config_id: 'github', type: 'standard', enabled: false, client_id: 'ghid', client_secret: 'ghsec' },
    ]);
    assert.deepEqual(legacy.enabled_oauth_providers, []);
    const publicView = (await api(server, 'GET', '/projects/current', client)).body.config;
    assert.equal(publicView.passkey_enabled, true);
    assert.equal(publicView.domains.length, 2);

    // A model value changes behaviour, not just the view: sign-up turned off refuses a new user.
    await patch(server, admin, 'environment', { 'auth.allowSignUp': false });
    assertKnownError(
      await api(server, 'POST', '/auth/password/sign-up', client, { email: 'new@example.com', password: 'a-long-password-1' }),
      'SIGN_UP_NOT_ENABLED',
    );
    config = await rendered(server, admin);
    assert.equal(config.auth.allowSignUp, false);
    const back = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { sign_up_enabled: true } });
    assert.equal(back.body.config.sign_up_enabled, true);
    assert.equal((await rendered(server, admin)).auth.allowSignUp, true);
  });
});

describeWithServer('check-feature-support', (get) => {
  it('answers 200 text that the feature is not yet supported, with or without a project', async () => {
    const server = get();
    const named = await api(server, 'POST', '/check-feature-support', {}, { name: 'sendVerificationEmail() on ServerUser' });
    assert.equal(named.status, 200);
    assert.equal(named.text, 'This feature is not yet supported. Please reach out to Stack support for more information.');
    const { client } = await createProject(server);
    const anonymous = await api(server, 'POST', '/check-feature-support', client, {});
    assert.equal(anonymous.text, 'This feature is not yet supported. Please reach out to Stack support for more information.');
  });
});

describeWithServer('config origins (dashboard)', (get) => {
  it('names the level that set each configured value and leaves defaults out', async () => {
    const server = get();
    const { admin } = await createProject(server);
    await patch(server, admin, 'branch', { 'teams.allowClientTeamCreation': true, 'dataVault.stores.s1': { displayName: 'S' } });
    await patch(server, admin, 'environment', { 'teams.allowClientTeamCreation': false });
    const res = await api(server, 'GET', '/internal/config/origins', admin);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.origins['teams.allowClientTeamCreation'], 'environment');
    assert.equal(res.body.origins['dataVault.stores.s1.displayName'], 'branch');
    assert.equal(
      res.body.origins['auth.password.allowSignIn'],
      'branch',
      "a new project's starting values are branch values a file can change (issue 29)",
    );
    assert.equal(res.body.origins['users.allowClientUserDeletion'], undefined);
    assert.deepEqual(res.body.source, { type: 'unlinked' });
  });
});

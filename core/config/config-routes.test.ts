import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { StatusError } from '../errors/index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, keyCredentials, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';

// In-process (test/helpers/core-client.ts): config overrides by level, their validation and
// access. The plain-text wire rendering of their refusals is the host's (test/routes/).

/** The rendered config of the caller's project (`config.get`, parsed `config_string`). */
async function rendered(t: TestCore, admin: Credentials) {
  return JSON.parse((await t.call<{ config_string: string }>('config.get', admin)).config_string);
}

/** The override stored at `level`, parsed. */
async function override(t: TestCore, caller: Credentials, level: string) {
  return JSON.parse((await t.call<{ config_string: string }>('config.getOverride', caller, { params: { level } })).config_string);
}

/** The input of `config.updateOverride` (PATCH) with `value` as the override string. */
const patchInput = (level: string, value: unknown) => ({ params: { level }, body: { config_override_string: JSON.stringify(value) } });

/** The bad-request status error `config.updateOverride` refuses `value` at `level` with. */
async function refusedPatch(t: TestCore, admin: Credentials, level: string, value: unknown): Promise<StatusError> {
  const error = await t.core.invoke('config.updateOverride', admin, patchInput(level, value)).then(
    () => assert.fail('the patch was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof StatusError, String(error));
  assert.equal(error.kind, 'bad-request');
  return error;
}

const patch = (t: TestCore, caller: Credentials, level: string, value: unknown) =>
  t.call<unknown>('config.updateOverride', caller, patchInput(level, value));

describeWithCore('config overrides', (get) => {
  it("renders a new project's config with its creation values and the schema defaults", async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const config = await rendered(t, admin);
    assert.deepEqual(config.auth.password, { allowSignIn: true });
    assert.deepEqual(config.auth.otp, { allowSignIn: false });
    assert.equal(config.auth.allowSignUp, true);
    assert.deepEqual(config.domains, { allowLocalhost: true, trustedDomains: {} });
    assert.deepEqual(config.teams, { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false });
    assert.deepEqual(config.rbac.defaultPermissions, { teamCreator: { team_admin: true }, teamMember: { team_member: true }, signUp: {} });
    assert.deepEqual(config.dataVault, { stores: {} });
  });

  it('patches each level, merges project then branch then environment, and resets keys so lower levels show through', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
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
      assert.deepEqual(await patch(t, admin, level, value), { success: true });
    }
    let config = await rendered(t, admin);
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
    assert.deepEqual(await override(t, admin, 'project'), { 'project.requirePublishableClientKey': true });
    assert.equal((await override(t, admin, 'branch'))['teams.allowClientTeamCreation'], true);

    const reset = await t.call('config.resetOverrideKeys', admin, {
      params: { level: 'environment' },
      body: { keys: ['teams.allowClientTeamCreation'] },
    });
    assert.deepEqual(reset, { success: true });
    config = await rendered(t, admin);
    assert.equal(config.teams.allowClientTeamCreation, true, 'the branch value shows through once the environment key is reset');
    assert.equal(config.auth.oauth.providers.google.clientId, 'gid');

    await t.call('config.resetOverrideKeys', admin, { params: { level: 'branch' }, body: { keys: ['teams', 'dataVault.stores.s1'] } });
    config = await rendered(t, admin);
    assert.equal(config.teams.allowClientTeamCreation, false);
    assert.deepEqual(config.dataVault.stores, {});
    const empty = await t.refuses('config.resetOverrideKeys', admin, { params: { level: 'project' }, body: { keys: [] } }, 'SCHEMA_ERROR');
    assert.equal(empty.status, 400);

    // The legacy project object reads the same model.
    const legacy = await t.call<any>('projects.getCurrentAdmin', admin);
    assert.equal(legacy.config.oauth_providers[0].id, 'google');
    assert.equal(legacy.config.oauth_providers[0].type, 'standard');
    assert.equal(legacy.config.oauth_providers[0].client_id, 'gid');
  });

  it('replaces a level with PUT, needs a source at the branch level and keeps it until unlinked', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    await patch(t, admin, 'branch', { 'teams.allowClientTeamCreation': true, 'users.allowClientUserDeletion': true });
    await refusesWithStatus(
      t,
      'config.setOverride',
      admin,
      { params: { level: 'branch' }, body: { config_string: '{}' } },
      'bad-request',
      'source is required for branch level config',
    );

    await t.call('config.setOverride', admin, {
      params: { level: 'branch' },
      body: { config_string: JSON.stringify({ 'users.allowClientUserDeletion': true }), source: { type: 'pushed-from-unknown' } },
    });
    assert.deepEqual(await override(t, admin, 'branch'), { 'users.allowClientUserDeletion': true });
    const config = await rendered(t, admin);
    assert.equal(config.teams.allowClientTeamCreation, false);
    assert.equal(config.users.allowClientUserDeletion, true);
    assert.deepEqual(await t.call('config.getSource', admin), { source: { type: 'pushed-from-unknown' } });
    assert.deepEqual(await t.call('config.unlinkSource', admin), { success: true });
    assert.deepEqual(await t.call('config.getSource', admin), { source: { type: 'unlinked' } });

    await t.call('config.setOverride', admin, {
      params: { level: 'environment' },
      body: { config_string: JSON.stringify({ 'auth.otp.allowSignIn': true }) },
    });
    assert.deepEqual(await override(t, admin, 'environment'), { 'auth.otp.allowSignIn': true });
    const after = await rendered(t, admin);
    assert.equal(after.auth.otp.allowSignIn, true);
    assert.equal(after.auth.password.allowSignIn, false, 'the PUT replaced the environment values the project was created with');
  });

  it('refuses a bad key, a bad value, a key of another level and bad JSON with a bad request naming the problem', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const badRequest = (level: string, value: unknown, message: string) =>
      refusesWithStatus(t, 'config.updateOverride', admin, patchInput(level, value), 'bad-request', message);
    await badRequest(
      'environment',
      { nonExistentField: 'some-value' },
      'The key "nonExistentField" is not valid (nested object not found in schema: "nonExistentField").',
    );
    const badValue = await refusedPatch(t, admin, 'branch', { 'auth.password.allowSignIn': 'yes' });
    assert.match(badValue.message, /"auth\.password\.allowSignIn" has an invalid value: must be a boolean/);
    const wrongLevel = await refusedPatch(t, admin, 'branch', { 'emails.server.password': 'secret' });
    assert.match(wrongLevel.message, /"emails\.server\.password" cannot be set at the branch level/);
    const badPort = await refusedPatch(t, admin, 'environment', { 'emails.server': { isShared: false, port: 70000 } });
    assert.match(badPort.message, /"emails\.server\.port" has an invalid value: must be between 0 and 65535/);
    await refusesWithStatus(
      t,
      'config.updateOverride',
      admin,
      { params: { level: 'environment' }, body: { config_override_string: '{ invalid json }' } },
      'bad-request',
      'Invalid config JSON',
    );
    assert.equal((await t.refuses('config.getOverride', admin, { params: { level: 'organization' } }, 'SCHEMA_ERROR')).status, 400);
    await t.refuses('config.updateOverride', admin, { params: { level: 'branch' }, body: { config_string: '{}' } }, 'SCHEMA_ERROR');
    // Nothing was written by the refused calls.
    assert.equal((await rendered(t, admin)).auth.password.allowSignIn, true);
  });

  it('lets server access manage the branch level only, and keeps the rendered config admin-only', async () => {
    const t = get();
    const { admin, projectId } = await createCoreProject(t);
    const keys = keyCredentials(projectId, await createCoreProjectKeys(t, admin));
    const serverOnlyBranch = 'Server access can only manage branch config overrides.';
    for (const level of ['project', 'environment']) {
      await refusesWithStatus(t, 'config.getOverride', keys.server, { params: { level } }, 'forbidden', serverOnlyBranch);
      await refusesWithStatus(
        t,
        'config.updateOverride',
        keys.server,
        patchInput(level, { 'auth.otp.allowSignIn': true }),
        'forbidden',
        serverOnlyBranch,
      );
      await refusesWithStatus(
        t,
        'config.setOverride',
        keys.server,
        { params: { level }, body: { config_string: '{}' } },
        'forbidden',
        serverOnlyBranch,
      );
    }
    await patch(t, keys.server, 'branch', { 'auth.otp.allowSignIn': true });
    assert.equal((await override(t, keys.server, 'branch'))['auth.otp.allowSignIn'], true);
    for (const [operationId, credentials, input] of [
      ['config.get', keys.server, {}],
      ['config.getOverride', keys.client, { params: { level: 'branch' } }],
      ['config.resetOverrideKeys', keys.server, { params: { level: 'branch' }, body: { keys: [] } }],
    ] as const) {
      assert.equal((await t.refuses(operationId, credentials, input, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
    }
  });

  it('reads legacy config updates and model overrides back the same, both ways', async () => {
    const t = get();
    const { admin, client } = await createCoreProject(t);
    await t.call('projects.updateCurrent', admin, {
      body: {
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
      },
    });
    let config = await rendered(t, admin);
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

    await patch(t, admin, 'environment', {
      'auth.passkey.allowSignIn': true,
      'auth.otp.allowSignIn': false,
      'domains.trustedDomains.extra': { baseUrl: 'https://other.example.com' },
      'auth.oauth.providers.github.allowSignIn': false,
      'teams.createPersonalTeamOnSignUp': true,
      'onboarding.requireEmailVerification': true,
    });
    const legacy = (await t.call<any>('projects.getCurrentAdmin', admin)).config;
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
    const publicView = (await t.call<any>('projects.getCurrent', client)).config;
    assert.equal(publicView.passkey_enabled, true);
    assert.equal(publicView.domains.length, 2);

    // A model value changes behaviour, not just the view: sign-up turned off refuses a new user.
    await patch(t, admin, 'environment', { 'auth.allowSignUp': false });
    await t.refuses(
      'authPassword.signUp',
      client,
      { body: { email: 'new@example.com', password: 'a-long-password-1' } },
      'SIGN_UP_NOT_ENABLED',
    );
    config = await rendered(t, admin);
    assert.equal(config.auth.allowSignUp, false);
    const back = await t.call<any>('projects.updateCurrent', admin, { body: { config: { sign_up_enabled: true } } });
    assert.equal(back.config.sign_up_enabled, true);
    assert.equal((await rendered(t, admin)).auth.allowSignUp, true);
  });

  it('checkFeatureSupport answers that the feature is not yet supported, with or without a project', async () => {
    const t = get();
    const text = 'This feature is not yet supported. Please reach out to Stack support for more information.';
    const named = await t.call<unknown>('meta.checkFeatureSupport', {}, { body: { name: 'sendVerificationEmail() on ServerUser' } });
    assert.deepEqual(named, { raw: true, kind: 'text', body: text });
    const { client } = await createCoreProject(t);
    const anonymous = await t.call<unknown>('meta.checkFeatureSupport', client, { body: {} });
    assert.deepEqual(anonymous, named);
  });

  it('names the level that set each configured value and leaves defaults out (dashboard origins)', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    await patch(t, admin, 'branch', { 'teams.allowClientTeamCreation': true, 'dataVault.stores.s1': { displayName: 'S' } });
    await patch(t, admin, 'environment', { 'teams.allowClientTeamCreation': false });
    const res = await t.call<any>('config.getOrigins', admin);
    assert.equal(res.origins['teams.allowClientTeamCreation'], 'environment');
    assert.equal(res.origins['dataVault.stores.s1.displayName'], 'branch');
    assert.equal(res.origins['auth.password.allowSignIn'], 'branch', "a new project's starting values are branch values a file can change");
    assert.equal(res.origins['users.allowClientUserDeletion'], undefined);
    assert.deepEqual(res.source, { type: 'unlinked' });
  });
});

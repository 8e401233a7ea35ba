import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { renderConfig, validateOverride } from './format.ts';
import { legacyToOverride, renderedToLegacy } from './legacy.ts';
import {
  AdminProjectConfigOutput,
  ClientProjectConfigOutput,
  ConfigUpdateSchema,
  applyConfigUpdate,
  configToClientWire,
  configToWire,
  defaultProjectConfig,
} from './project-config.ts';
import { flagDoc, PROJECT_FLAGS } from './project-flags.ts';

describe('the project flag table', () => {
  it('keeps the wire key order of the admin and client config objects (upstream projects CRUD)', () => {
    const config = defaultProjectConfig();
    assert.deepEqual(Object.keys(configToClientWire(config)), [
      'sign_up_enabled',
      'credential_enabled',
      'magic_link_enabled',
      'passkey_enabled',
      'client_team_creation_enabled',
      'client_user_deletion_enabled',
      'allow_user_api_keys',
      'allow_team_api_keys',
      'enabled_oauth_providers',
      'allow_localhost',
      'domains',
      // Gatehouse extension, after upstream's keys.
      'bot_challenge_site_key',
    ]);
    assert.deepEqual(Object.keys(configToWire(config, 'p')).slice(0, 12), [
      'id',
      'allow_localhost',
      'sign_up_enabled',
      'credential_enabled',
      'magic_link_enabled',
      'passkey_enabled',
      'client_team_creation_enabled',
      'client_user_deletion_enabled',
      'allow_user_api_keys',
      'allow_team_api_keys',
      'create_team_on_sign_up',
      'oauth_account_merge_strategy',
    ]);
    assert.ok(v.is(AdminProjectConfigOutput, configToWire(config, 'p')));
    assert.ok(v.is(ClientProjectConfigOutput, configToClientWire(config)));
  });

  it('names a documented leaf of the config model for each flag, and maps each both ways', () => {
    assert.equal(defaultProjectConfig().allowLocalhost, true, 'new projects trust localhost');
    assert.equal(defaultProjectConfig().credentialEnabled, true, 'new projects allow password sign-in');
    for (const flag of PROJECT_FLAGS) {
      assert.ok(flagDoc(flag).length > 0, flag.key);
      // Flipped from the model's default, so the override must carry it.
      const base = renderedToLegacy(renderConfig([]));
      const flipped = !base[flag.key];
      const updated = applyConfigUpdate(base, v.parse(ConfigUpdateSchema, { [flag.wire]: flipped }));
      assert.equal(updated[flag.key], flipped, flag.wire);
      const override = legacyToOverride(updated);
      assert.equal(override[flag.path], flipped, `${flag.key} is stored at ${flag.path}`);
      validateOverride(override, 'environment');
      assert.deepEqual(renderedToLegacy(renderConfig([override])), updated, flag.key);
      assert.ok(!v.is(ConfigUpdateSchema, { [flag.wire]: 'yes' }), `${flag.wire} accepts booleans only`);
    }
  });
});

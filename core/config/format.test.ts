import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyOverridePatch, ConfigOverrideError, migrateOverride, renderConfig, resetOverrideKeys, validateOverride } from './format.ts';
import { legacyToOverride, renderedToLegacy } from './legacy.ts';
import { defaultProjectConfig, type ProjectConfig } from './project-config.ts';

const rich: ProjectConfig = {
  ...defaultProjectConfig(),
  allowLocalhost: false,
  magicLinkEnabled: true,
  passkeyEnabled: true,
  createTeamOnSignUp: true,
  allowTeamApiKeys: true,
  teamCreatorDefaultPermissions: ['team_admin', 'billing'],
  userDefaultPermissions: ['reader'],
  domains: [
    { domain: 'https://a.example.com', handlerPath: '/handler' },
    { domain: 'https://*.b.example.com', handlerPath: '/auth' },
  ],
  emailThemeId: 'theme-1',
  oauthProviders: [
    { id: 'google', enabled: true, type: 'standard', clientId: 'cid', clientSecret: 'sec' },
    { id: 'github', enabled: false, type: 'shared' },
    {
      id: 'corp-sso',
      enabled: true,
      type: 'standard',
      clientId: 'c2',
      clientSecret: 's2',
      issuerUrl: 'https://sso.example.com',
      displayName: 'Corp',
    },
  ],
  oauthAccountMergeStrategy: 'raise_error',
  emailConfig: {
    type: 'standard',
    host: 'smtp.example.com',
    port: 587,
    username: 'u',
    password: 'p',
    senderName: 'Me',
    senderEmail: 'me@example.com',
  },
  requirePublishableClientKey: true,
  requireEmailVerification: true,
  branding: { accentLight: '#112233', accentDark: null, termsUrl: 'https://example.com/terms', privacyUrl: null },
};

describe('configuration model (format and legacy view)', () => {
  it('renders the legacy view of a legacy config written as an override back to the same config', () => {
    for (const config of [defaultProjectConfig(), rich]) {
      assert.deepEqual(renderedToLegacy(renderConfig([legacyToOverride(config)])), config);
    }
  });

  it('merges levels in order: a later level wins, null removes a key back to its default, an absent key lets lower levels show through', () => {
    const project = { 'project.requirePublishableClientKey': true };
    const branch = { 'teams.allowClientTeamCreation': true, 'dataVault.stores.s1': { displayName: 'One' } };
    const environment = { 'teams.allowClientTeamCreation': false };
    const r = renderConfig([project, branch, environment]);
    assert.equal(r.project.requirePublishableClientKey, true);
    assert.equal(r.teams.allowClientTeamCreation, false);
    assert.deepEqual(r.dataVault.stores, { s1: { displayName: 'One' } });
    assert.equal(renderConfig([project, branch, { 'teams.allowClientTeamCreation': null }]).teams.allowClientTeamCreation, false);
    assert.equal(renderConfig([project, branch, {}]).teams.allowClientTeamCreation, true);
    assert.deepEqual(renderConfig([{ 'dataVault.stores.s2': {} }]).dataVault.stores, { s2: { displayName: 'Unnamed Vault' } });
  });

  it('patches an override: a dotted key edits inside a stored object, a key replaces itself and its children', () => {
    let stored = applyOverridePatch({}, { 'auth.oauth.providers.google': { type: 'google', allowSignIn: true } });
    stored = applyOverridePatch(stored, { 'auth.oauth.providers.google.allowSignIn': false });
    assert.deepEqual(stored, { 'auth.oauth.providers.google': { type: 'google', allowSignIn: false } });
    stored = applyOverridePatch({ 'a.b.c': 1, 'a.b.d': 2, 'a.e': 3 }, { 'a.b': { x: 1 } });
    assert.deepEqual(stored, { 'a.e': 3, 'a.b': { x: 1 } });
    assert.deepEqual(resetOverrideKeys({ 'a.b.c': 1, 'a.e': 3, f: { g: 1, h: 2 } }, ['a.b', 'f.g']), { 'a.e': 3, f: { h: 2 } });
  });

  it('names the offending key of a bad override', () => {
    const fails = (o: unknown, level: 'project' | 'branch' | 'environment', re: RegExp) =>
      assert.throws(
        () => validateOverride(o, level),
        (e: unknown) => e instanceof ConfigOverrideError && re.test(e.message),
      );
    fails(
      { nonExistentField: 1 },
      'environment',
      /^The key "nonExistentField" is not valid \(nested object not found in schema: "nonExistentField"\)\.$/,
    );
    fails({ 'auth.password.allowSignIn': 'yes' }, 'branch', /The key "auth.password.allowSignIn" has an invalid value: must be a boolean/);
    fails({ auth: { password: { nope: true } } }, 'branch', /The key "auth.password.nope" is not valid/);
    fails(
      { 'auth.oauth.providers.google.clientSecret': 's' },
      'branch',
      /The key "auth.oauth.providers.google.clientSecret" cannot be set at the branch level/,
    );
    fails(
      { 'teams.allowClientTeamCreation': true },
      'project',
      /The key "teams.allowClientTeamCreation" cannot be set at the project level/,
    );
    fails({ 'dataVault.stores.bad id': {} }, 'environment', /The key "dataVault.stores.bad id" is not valid \(the id "bad id"/);
    fails([1], 'environment', /must be a JSON object/);
    validateOverride({ 'auth.oauth.providers.github': null, 'project.requirePublishableClientKey': true }, 'branch');
  });

  it('migrates renamed keys as upstream does', () => {
    assert.deepEqual(migrateOverride({ 'emails.theme': 't1', 'payments.offers.o1': { displayName: 'O' } }, 'branch'), {
      'emails.selectedThemeId': 't1',
      'payments.products.o1': { displayName: 'O' },
    });
    assert.deepEqual(migrateOverride({ payments: { offers: { o1: {} } } }, 'environment'), { payments: { products: { o1: {} } } });
    assert.deepEqual(
      migrateOverride({ 'domains.trustedDomains': [{ baseUrl: 'https://x.example.com', handlerPath: '/handler' }] }, 'environment'),
      { 'domains.trustedDomains': { 0: { baseUrl: 'https://x.example.com', handlerPath: '/handler' } } },
    );
    assert.deepEqual(migrateOverride({ sourceOfTruth: { type: 'hosted' }, 'emails.themeList': {} }, 'environment'), {});
  });
});

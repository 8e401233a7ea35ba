import assert from 'node:assert/strict';
import { it } from 'node:test';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { api } from '../helpers/api.ts';
import { patchConfigOverride } from '../helpers/config.ts';
import { describeWithServer } from '../helpers/suite.ts';
import type { TestServer } from '../helpers/server.ts';
import { createClient, discover, idpProject } from './idp-fixtures.ts';
import { approveInHostedPages, signedInUser } from './hosted-authorization.ts';

const REDIRECT = 'http://127.0.0.1:9/claims-callback';
const TEMPLATE = {
  plan: '{{user.server_metadata.plan}}',
  limits: '{{user.server_metadata.limits}}',
  label: 'plan-{{user.server_metadata.plan}}/{{user.server_metadata.missing}}',
  org: '{{team.display_name}}',
  org_tier: '{{team.server_metadata.tier}}',
  org_permissions: '{{team.permissions}}',
  roles: '{{user.project_permissions}}',
  absent: '{{user.server_metadata.nothing.here}}',
};

/** A user with server metadata, a selected team (as its creator: team_admin) and a project permission. */
async function richUser(server: TestServer, p: Awaited<ReturnType<typeof idpProject>>) {
  const user = await signedInUser(server, p, {
    server_metadata: { plan: 'pro', limits: { seats: 5 } },
    profile_image_url: 'https://img.example.com/ada.png',
  });
  const team = await api(server, 'POST', '/teams', p.server, {
    display_name: 'Analytical Engines',
    creator_user_id: user.id,
    server_metadata: { tier: 'gold' },
  });
  assert.equal(team.status, 201, team.text);
  assert.equal((await api(server, 'PATCH', `/users/${user.id}`, p.server, { selected_team_id: team.body.id })).status, 200);
  assert.equal((await api(server, 'POST', '/project-permission-definitions', p.admin, { id: 'reports' })).status, 201);
  assert.equal((await api(server, 'POST', `/project-permissions/${user.id}/reports`, p.server, {})).status, 201);
  return user;
}

function assertCustomClaims(claims: Record<string, unknown>) {
  assert.equal(claims.plan, 'pro');
  assert.deepEqual(claims.limits, { seats: 5 });
  assert.equal(claims.label, 'plan-pro/');
  assert.equal(claims.org, 'Analytical Engines');
  assert.equal(claims.org_tier, 'gold');
  assert.ok(
    Array.isArray(claims.org_permissions) && (claims.org_permissions as string[]).includes('team_admin'),
    String(claims.org_permissions),
  );
  assert.deepEqual(claims.roles, ['reports']);
  assert.equal('absent' in claims, false);
}

describeWithServer('Identity provider: standard claims by scope and the claims template (issue 31)', (get) => {
  it('refuses a bad claims template at save with a message naming the problem', async () => {
    const server = get();
    const p = await idpProject(server);
    const cases: Array<[unknown, RegExp]> = [
      [{ email: '{{user.primary_email}}' }, /claim "email" is a registered or standard claim/],
      [{ secret: '{{user.password_hash}}' }, /unknown path \{\{user\.password_hash\}\}/],
      [{ x: '{{process.env.HOME}}' }, /does not start with user\. or team\./],
      [{ x: 'plan-{{user.server_metadata.plan' }, /unclosed or nested/],
      [{ x: '{{user.id.length}}' }, /goes past user\.id/],
      [{ x: 42 }, /must be a template string/],
      [{ '1x': '{{user.id}}' }, /claim name "1x"/],
      [Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`c${i}`, '{{user.id}}'])), /at most 30 claims/],
      [{ x: '{{user.id}}'.repeat(11) }, /more than 10 placeholders/],
      ['{{user.id}}', /must be an object/],
    ];
    for (const [template, message] of cases) {
      const res = await patchConfigOverride(server, p.admin, 'branch', { 'oidc.claimsTemplate': template });
      assert.equal(res.status, 400, `${JSON.stringify(template)}: ${res.text}`);
      assert.match(res.text, message);
      assert.match(res.text, /oidc\.claimsTemplate/);
    }
    const ok = await patchConfigOverride(server, p.admin, 'branch', { 'oidc.claimsTemplate': TEMPLATE });
    assert.equal(ok.status, 200, ok.text);
  });

  it("adds the template's claims to Gatehouse's own access tokens, and none without a template", async () => {
    const server = get();
    const p = await idpProject(server);
    const plain = await signedInUser(server, p);
    const before = await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: plain.refreshToken } as any);
    assert.equal(before.status, 200, before.text);
    assert.equal('plan' in decodeJwt(before.body.access_token), false);

    assert.equal((await patchConfigOverride(server, p.admin, 'branch', { 'oidc.claimsTemplate': TEMPLATE })).status, 200);
    const user = await richUser(server, p);
    const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.id, expires_in_millis: 60_000 });
    const claims = decodeJwt(session.body.access_token);
    assertCustomClaims(claims);
    assert.equal(claims.sub, user.id);
    assert.equal(claims.email, user.email, 'the standard claims are untouched');
    const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: user.refreshToken } as any);
    assertCustomClaims(decodeJwt(refreshed.body.access_token));
  });

  it('ID tokens and userinfo carry the standard claims of the granted scopes and the custom claims; JWT access tokens the custom claims', async () => {
    const server = get();
    const p = await idpProject(server, { 'oidc.scopes': ['reports:read'], 'oidc.claimsTemplate': TEMPLATE });
    const client = await createClient(server, p.admin, {
      client_name: 'Reports',
      redirect_uris: [REDIRECT],
      skip_consent: true,
      scope: 'openid profile email reports:read',
    });
    const config = await discover(p.issuer, client.client_id, client.client_secret);
    const user = await richUser(server, p);
    const login = async (params: Record<string, string>) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...params,
      }).href;
      const callback = await approveInHostedPages(p.projectId, url, user, REDIRECT, { expectConsent: false });
      return oidc.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: verifier });
    };

    const full = await login({ scope: 'openid profile email' });
    const id = full.claims()!;
    assert.equal(id.sub, user.id);
    assert.equal(id.email, user.email);
    assert.equal(id.email_verified, true);
    assert.equal(id.name, 'Ada Lovelace');
    assert.equal(id.picture, 'https://img.example.com/ada.png');
    assert.equal(typeof id.updated_at, 'number');
    assertCustomClaims(id);
    const info = await oidc.fetchUserInfo(config, full.access_token, user.id);
    assert.equal(info.email, user.email);
    assert.equal(info.picture, 'https://img.example.com/ada.png');
    assertCustomClaims(info);

    // openid alone: sub and the custom claims, no profile or email claims.
    const narrow = (await login({ scope: 'openid' })).claims()!;
    assert.equal(narrow.sub, user.id);
    for (const claim of ['email', 'email_verified', 'name', 'picture', 'updated_at']) assert.equal(claim in narrow, false, claim);
    assertCustomClaims(narrow);
    const narrowInfo = await oidc.fetchUserInfo(config, (await login({ scope: 'openid' })).access_token, user.id);
    assert.equal('email' in narrowInfo, false);

    // A resource indicator's JWT access token carries them too.
    const api1 = await login({ scope: 'openid reports:read', resource: 'https://reports.example.com' });
    const at = decodeJwt(api1.access_token);
    assert.equal(at.aud, 'https://reports.example.com');
    assertCustomClaims(at);
  });
});

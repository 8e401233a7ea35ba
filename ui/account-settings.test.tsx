/**
 * Hosted account settings: teams managed in place (members, invite, rename, delete;
 * finding 7), sign-out landing on the app and the magic-link step's resend / change email (finding 9), over a fake server, under StrictMode.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { click, flush, input, type, waitFor, waitForText } from './test-dom.tsx';
import { USER, makeApp, show } from './component-test-app.tsx';
import { AccountSettings, MagicLinkSignIn } from './index.ts';

const TEAM = { id: 't1', display_name: 'Team One', profile_image_url: null, client_metadata: {}, client_read_only_metadata: {} };

describe('AccountSettings teams', () => {
  it('lists members, removes one, invites by email, renames and deletes the team', async () => {
    let members = [
      { team_id: 't1', user_id: 'u1', display_name: 'Ada', profile_image_url: null },
      { team_id: 't1', user_id: 'u2', display_name: 'Grace', profile_image_url: null },
    ];
    let name = 'Team One';
    let deleted = false;
    const { app, transport } = makeApp((req) => {
      const path = req.path.split('?')[0];
      if (path === '/teams' && req.method === 'GET') return { json: { items: deleted ? [] : [{ ...TEAM, display_name: name }] } };
      if (path === '/team-member-profiles') return { json: { items: members, is_paginated: false } };
      if (path === '/team-invitations' && req.method === 'GET') return { json: { items: [], is_paginated: false } };
      if (path === '/team-memberships/t1/u2' && req.method === 'DELETE') {
        members = members.filter((m) => m.user_id !== 'u2');
        return { json: { success: true } };
      }
      if (path === '/teams/t1' && req.method === 'PATCH') {
        name = JSON.parse(req.body!).display_name;
        return { json: { ...TEAM, display_name: name } };
      }
      if (path === '/teams/t1' && req.method === 'DELETE') {
        deleted = true;
        return { json: { success: true } };
      }
      if (path === '/users/me' && req.method === 'GET') return { json: { ...USER } };
      return undefined;
    }, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Manage Team One');
    await click(c, 'Manage Team One');
    await waitForText(c, 'Grace');
    const list = () => c.querySelector('ul[aria-label="Members of Team One"]') as HTMLElement;
    assert.match(list().textContent ?? '', /Ada \(you\)/);
    await click(list(), 'Remove');
    await waitFor(
      () => !(list()?.textContent ?? '').includes('Grace'),
      () => `Grace still listed: ${list()?.textContent}`,
    );
    await type(c, 'Email to invite', 'lin@example.com');
    await click(c, 'Send invitation');
    await waitForText(c, 'Invitation sent to lin@example.com.');
    const sent = transport.requests.find((r) => r.path === '/team-invitations/send-code');
    assert.deepEqual(JSON.parse(sent!.body!), {
      email: 'lin@example.com',
      team_id: 't1',
      callback_url: 'http://localhost:3000/handler/team-invitation',
    });
    await type(c, 'Team name', 'Platform');
    await click(c, 'Rename');
    await waitForText(c, 'Manage Platform');
    await click(c, 'Delete team');
    await click(c, 'Yes, delete it');
    await waitForText(c, 'You are not in any team.');
    assert.ok(transport.requests.some((r) => r.method === 'DELETE' && r.path === '/teams/t1'));
  });
});

describe('AccountSettings sign-out', () => {
  it('lands on the app (after-sign-out), not on the sign-in page', async () => {
    const { app, visited } = makeApp(undefined, true);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Display name');
    await click(c, 'Sign out');
    await waitFor(
      () => visited.length > 0,
      () => 'no redirect',
    );
    await flush(10);
    assert.deepEqual(visited, ['/']);
  });
});

describe('MagicLinkSignIn check-your-email step', () => {
  it('sends the email again, and goes back to change the address', async () => {
    const { app, transport } = makeApp((req) => (req.path === '/auth/otp/send-sign-in-code' ? { json: { nonce: 'nonce123' } } : undefined));
    const c = await show(app, <MagicLinkSignIn />);
    await type(c, 'Email', 'ada@example.com');
    await click(c, 'Send me a sign-in link');
    await waitForText(c, 'We sent a sign-in link');
    await click(c, 'Send it again');
    await waitFor(
      () => transport.requests.filter((r) => r.path === '/auth/otp/send-sign-in-code').length === 2,
      () => 'not sent again',
    );
    await click(c, 'Use another email');
    assert.equal(input(c, 'Email').value, 'ada@example.com', 'the address is kept to edit');
    await type(c, 'Email', 'grace@example.com');
    await click(c, 'Send me a sign-in link');
    await waitForText(c, 'grace@example.com');
    assert.equal(
      JSON.parse(transport.requests.filter((r) => r.path === '/auth/otp/send-sign-in-code')[2]!.body!).email,
      'grace@example.com',
    );
  });
});

describe('AccountSettings team SSO ($manage_sso)', () => {
  const CONNECTION = {
    id: 'c1',
    team_id: 't1',
    type: 'saml',
    display_name: 'Okta',
    acs_url: 'http://localhost:3000/api/v1/auth/sso/saml/c1/acs',
    sp_entity_id: 'http://localhost:3000/api/v1/auth/sso/saml/c1/metadata',
    sp_metadata_url: 'http://localhost:3000/api/v1/auth/sso/saml/c1/metadata',
    redirect_uri: null,
  };
  const serve = (permissions: string[]) => {
    let connections: Array<Omit<typeof CONNECTION, 'display_name'> & { display_name: string | null }> = [CONNECTION];
    return makeApp((req) => {
      const path = req.path.split('?')[0];
      if (path === '/teams' && req.method === 'GET') return { json: { items: [TEAM] } };
      if (path === '/team-member-profiles') return { json: { items: [], is_paginated: false } };
      if (path === '/team-permissions') return { json: { items: permissions.map((id) => ({ id, team_id: 't1', user_id: 'u1' })) } };
      if (path === '/teams/t1/sso-connections' && req.method === 'GET') return { json: { items: connections, is_paginated: false } };
      if (path === '/teams/t1/sso-connections' && req.method === 'POST') {
        const added = { ...CONNECTION, id: 'c2', display_name: null, acs_url: 'http://localhost:3000/api/v1/auth/sso/saml/c2/acs' };
        connections = [...connections, added];
        return { status: 201, json: added };
      }
      if (path === '/teams/t1/sso-connections/c1' && req.method === 'DELETE') {
        connections = connections.filter((c) => c.id !== 'c1');
        return { json: { success: true } };
      }
      return undefined;
    }, true);
  };

  it('shows a team admin with $manage_sso the connections’ SP details, adds one from a metadata URL and deletes one', async () => {
    const { app, transport } = serve(['team_admin', '$manage_sso']);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Manage Team One');
    await click(c, 'Manage Team One');
    await waitForText(c, CONNECTION.acs_url);
    const section = () => c.querySelector('[data-testid="team-sso-t1"]') as HTMLElement;
    assert.match(section().textContent ?? '', /Okta/);
    await click(section(), 'Add connection');
    await waitForText(section(), 'Enter the http(s) URL');
    await type(section(), 'IdP metadata URL', 'https://corp.okta.com/app/exk1/sso/saml/metadata');
    await click(section(), 'Add connection');
    await waitForText(section(), 'http://localhost:3000/api/v1/auth/sso/saml/c2/acs');
    const created = transport.requests.find((r) => r.path === '/teams/t1/sso-connections' && r.method === 'POST');
    assert.deepEqual(JSON.parse(created!.body!), { type: 'saml', idp_metadata_url: 'https://corp.okta.com/app/exk1/sso/saml/metadata' });
    await click(section(), 'Delete connection');
    await waitFor(
      () => !(section()?.textContent ?? '').includes('Okta'),
      () => `still listed: ${section()?.textContent}`,
    );
  });

  it('shows nothing about SSO to a member without $manage_sso', async () => {
    const { app, transport } = serve(['team_member']);
    const c = await show(app, <AccountSettings />);
    await waitForText(c, 'Manage Team One');
    await click(c, 'Manage Team One');
    await flush();
    await flush();
    assert.equal(c.querySelector('[data-testid="team-sso-t1"]'), null);
    assert.equal(transport.requests.filter((r) => r.path.startsWith('/teams/t1/sso-connections')).length, 0);
  });
});

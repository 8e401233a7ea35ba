import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';

// Issue 12 finding 2, through OAuth: an attacker registers the victim's address by password
// (never verified); the victim later signs in with a provider that vouches for that address and,
// with `link_method`, landed in the attacker's account.

describeWithServer('account pre-hijacking through OAuth (issue 12 finding 2)', (get) => {
  let idp: TestOidcProvider;
  let project: Awaited<ReturnType<typeof createProject>>;
  before(async () => {
    const server = get();
    idp = await startOidcProvider([`${server.url}/api/v1/auth/oauth/callback/acme`]);
    project = await createProject(server, {
      oauth_providers: [
        {
          id: 'acme',
          type: 'standard',
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          issuer_url: idp.issuer,
          display_name: 'Acme SSO',
        },
      ],
      oauth_account_merge_strategy: 'link_method',
    });
  });
  after(async () => {
    await idp?.close();
  });

  async function signInWithProvider(login: string) {
    const server = get();
    const flow = newAppFlow();
    const start = await fetch(authorizeUrl(server, 'acme', project.projectId, flow, { stack_response_mode: 'json' }));
    const { location } = (await start.json()) as { location: string };
    const back = await followCallback(
      await signInAtProvider(new CookieJar(), location, login, `${server.url}/api/v1/auth/oauth/callback/`),
    );
    const tokens = await exchangeCode(server, project.projectId, back.searchParams.get('code')!, flow.verifier);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    return tokens.body as { user_id: string; is_new_user: boolean };
  }

  it('does not link the victim provider account to an account whose copy of the address was never verified', async () => {
    const server = get();
    const attacker = await api(server, 'POST', '/auth/password/sign-up', project.client, {
      email: 'victim-one@example.test',
      password: 'attacker-chosen-pass-1',
    });
    assert.equal(attacker.status, 200, attacker.text);
    const victim = await signInWithProvider('victim-one');
    assert.notEqual(victim.user_id, attacker.body.user_id, 'the victim lands in an account of their own');
    assert.equal(victim.is_new_user, true);
  });

  it('still links to an account whose address is verified', async () => {
    const server = get();
    const owner = await api(server, 'POST', '/users', project.server, {
      primary_email: 'owner-two@example.test',
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: 'velvet tractor 93',
    });
    assert.equal(owner.status, 201, owner.text);
    const linked = await signInWithProvider('owner-two');
    assert.equal(linked.user_id, owner.body.id);
    assert.equal(linked.is_new_user, false);
  });
});

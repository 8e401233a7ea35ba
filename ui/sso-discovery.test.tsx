import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captureAssign, click, input, type, waitFor, waitForText } from './test-dom.tsx';
import { SignIn, SignUp } from './index.ts';
import { SsoAvailableContext } from './components/sso-discovery.tsx';
import { makeApp, show, type Route } from './component-test-app.tsx';

/** A server whose project has SSO: addresses at corp.example sign in through their team's IdP. */
const withSso: Route = (req) => {
  if (!req.path.startsWith('/auth/sso/discovery')) return undefined;
  const email = new URL(req.path, 'http://x').searchParams.get('email');
  return { json: { sso_available: true, sso: email?.endsWith('@corp.example') ?? false } };
};

describe('SignIn with home-realm discovery (project with SSO)', () => {
  it('asks for the address first and sends an address of an SSO domain to /auth/sso/authorize with the app’s OAuth parameters', async () => {
    const { app } = makeApp(withSso);
    const assigned = await captureAssign(async (navigations) => {
      const c = await show(app, <SignIn />);
      await waitForText(c, 'Continue');
      assert.equal(c.querySelector('input[type=password]'), null, 'no password field before the address is known');
      assert.doesNotMatch(c.textContent ?? '', /Sign in with GitHub/);
      await type(c, 'Email', 'zoe@corp.example');
      await click(c, 'Continue');
      await waitForText(c, "Taking you to your organization's sign-in…");
      // The navigation follows the PKCE pair's generation (WebCrypto), which is not bound to a render.
      await waitFor(
        () => navigations.length > 0,
        () => 'no navigation to /auth/sso/authorize',
      );
    });
    assert.equal(assigned.length, 1);
    const url = new URL(assigned[0]!);
    assert.equal(url.pathname, '/api/v1/auth/sso/authorize');
    assert.equal(url.searchParams.get('email'), 'zoe@corp.example');
    assert.equal(url.searchParams.get('client_id'), 'internal');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('redirect_uri'), 'http://localhost:3000/handler/oauth-callback');
    const state = url.searchParams.get('state')!;
    assert.ok(document.cookie.includes(`stack-oauth-outer-${state}=`), 'the PKCE verifier is kept for the callback page');
  });

  it('continues with the usual methods, the address filled in, for an address without SSO; the address can be changed', async () => {
    const { app, transport } = makeApp(withSso);
    const assigned = await captureAssign(async () => {
      const c = await show(app, <SignIn />);
      await waitForText(c, 'Continue');
      await click(c, 'Continue');
      assert.match(c.textContent ?? '', /Please enter your email address\./);
      assert.equal(transport.requests.filter((r) => r.path.includes('email=')).length, 0, 'checked on the client first');
      await type(c, 'Email', 'ada@example.com');
      await click(c, 'Continue');
      await waitForText(c, 'Email & password');
      assert.equal(input(c, 'Email').value, 'ada@example.com');
      assert.ok(input(c, 'Password'));
      assert.match(c.textContent ?? '', /Sign in with GitHub/);
      await click(c, 'Use another email');
      await waitForText(c, 'Continue');
    });
    assert.deepEqual(assigned, []);
  });

  it('asks for the address first on the sign-up page too', async () => {
    const { app } = makeApp(withSso);
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Continue');
    await type(c, 'Email', 'new@example.com');
    await click(c, 'Continue');
    await waitForText(c, 'Sign up');
    assert.equal(input(c, 'Email').value, 'new@example.com');
  });

  it('takes the answer the hosted page was given instead of asking (SsoAvailableContext)', async () => {
    for (const known of [false, true]) {
      const { app, transport } = makeApp(withSso);
      const c = await show(
        app,
        <SsoAvailableContext.Provider value={known}>
          <SignIn />
        </SsoAvailableContext.Provider>,
      );
      await waitForText(c, known ? 'Continue' : 'Email & password');
      assert.equal(transport.requests.filter((r) => r.path.startsWith('/auth/sso/discovery')).length, 0, 'no discovery request');
    }
  });

  it('shows the usual methods at once when the project has no SSO or the server has no discovery', async () => {
    const { app } = makeApp((req) => (req.path.startsWith('/auth/sso/discovery') ? { status: 404, json: {} } : undefined));
    const c = await show(app, <SignIn />);
    await waitForText(c, 'Email & password');
    assert.ok(input(c, 'Password'));
  });
});

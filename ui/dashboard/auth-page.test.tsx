/**
 * The dashboard's first-run page: "sign-up closes" is said only when it
 * does (not when the server keeps dashboard sign-up open).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { render, waitForText } from '../test-dom.tsx';
import { fakeTransport } from './test-harness.tsx';
const { DashboardApi } = await import('./api.ts');
const { ApiContext } = await import('./kit.tsx');
const { AuthPage } = await import('./pages/auth.tsx');

async function firstRunText(signUpStaysOpen: boolean): Promise<string> {
  const fake = fakeTransport((req) =>
    req.path === '/projects/current'
      ? {
          status: 200,
          body: {
            id: 'internal',
            display_name: 'Gatehouse',
            config: {
              sign_up_enabled: true,
              credential_enabled: true,
              magic_link_enabled: false,
              passkey_enabled: false,
              enabled_oauth_providers: [],
            },
          },
        }
      : undefined,
  );
  const api = new DashboardApi(
    { firstRun: true, signUpOpen: true, signUpStaysOpen, serverPath: '/' },
    { origin: 'http://localhost:3000', pathname: '/' },
    { transport: fake.transport, tokenStore: { accessToken: null, refreshToken: null } as never },
  );
  const { container, unmount } = await render(
    <ApiContext.Provider value={api}>
      <AuthPage onSignedIn={() => {}} />
    </ApiContext.Provider>,
  );
  await waitForText(container, 'Create the owner account');
  const text = container.textContent ?? '';
  await unmount();
  return text;
}

it('says sign-up closes after the first owner only when it does', async () => {
  assert.match(await firstRunText(false), /sign-up to the dashboard closes/);
  const open = await firstRunText(true);
  assert.doesNotMatch(open, /closes/);
  assert.match(open, /stays open/);
});

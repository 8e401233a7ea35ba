/**
 * Configuration and data-vault dashboard pages under happy-dom, with a fake transport
 * (the same harness as pages.test.tsx).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { act, click, flush, render, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT_ID, dashboard } from './test-harness.tsx';

it('configuration page: shows each value with the level it came from, masks secrets, and saves the environment override', async () => {
  let saved: unknown = null;
  let handedBack: unknown = null;
  const { api } = dashboard(`/projects/${PROJECT_ID}/config`, (req) => {
    if (req.path === '/internal/config')
      return {
        status: 200,
        body: {
          config_string: JSON.stringify({
            auth: { otp: { allowSignIn: true }, oauth: { providers: { google: { clientSecret: 'gsec-123' } } } },
            teams: { allowClientTeamCreation: false },
          }),
        },
      };
    if (req.path === '/internal/config/origins')
      return {
        status: 200,
        body: {
          origins: { 'auth.otp.allowSignIn': 'environment', 'auth.oauth.providers.google.clientSecret': 'environment' },
          source: { type: 'pushed-from-unknown' },
        },
      };
    if (req.path === '/internal/config/override/environment' && req.method === 'GET')
      return { status: 200, body: { config_string: JSON.stringify({ 'auth.otp.allowSignIn': true }) } };
    if (req.path === '/internal/config/override/environment' && req.method === 'PUT') {
      saved = JSON.parse(String(req.body));
      return { status: 200, body: { success: true } };
    }
    if (req.path === '/internal/config/override/branch')
      return {
        status: 200,
        body: { config_string: JSON.stringify({ 'auth.otp.allowSignIn': false, 'teams.allowClientTeamCreation': false }) },
      };
    if (req.path === '/internal/config/override/environment/reset-keys') {
      handedBack = JSON.parse(String(req.body));
      return { status: 200, body: { success: true } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'auth.otp.allowSignIn');
  const row = (path: string) => container.querySelector(`[data-testid="config-row-${path}"]`)?.textContent ?? '';
  assert.match(
    row('auth.otp.allowSignIn'),
    /trueenvironmentUse the file’s value$/,
    'an environment value over a file value can be handed back',
  );
  assert.match(row('teams.allowClientTeamCreation'), /falsedefault$/);
  assert.match(row('auth.oauth.providers.google.clientSecret'), /environment$/, 'no hand-back for a key the file does not set');
  await click(container, 'Use the file’s value');
  await flush();
  assert.deepEqual(handedBack, { keys: ['auth.otp.allowSignIn'] });
  assert.doesNotMatch(container.textContent ?? '', /gsec-123/);
  assert.match(container.querySelector('[data-testid="config-source"]')?.textContent ?? '', /pushed from a file/);
  const textarea = container.querySelector('#env-override') as HTMLTextAreaElement;
  assert.match(textarea.value, /"auth.otp.allowSignIn": true/);
  // The prototype's setter, so React's value tracker sees a change (as a user's typing would).
  await act(async () => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(textarea), 'value')!.set!.call(textarea, '{"auth.passkey.allowSignIn": true}');
    textarea.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
  });
  await click(container, 'Save override');
  await flush();
  assert.deepEqual(saved, { config_string: JSON.stringify({ 'auth.passkey.allowSignIn': true }) });
  unmount();
});

it('data vault page: lists stores with names and entry counts', async () => {
  const { api } = dashboard(`/projects/${PROJECT_ID}/data-vault`, (req) =>
    req.path === '/internal/data-vault/stores'
      ? { status: 200, body: { items: [{ id: 'cards', display_name: 'Cards', entry_count: 3 }] } }
      : undefined,
  );
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Cards');
  // The id cell holds the id and its Copy button.
  const cells = [...container.querySelectorAll('table[aria-label="Stores"] td')].map(
    (td) => td.querySelector('code')?.textContent ?? td.textContent,
  );
  assert.deepEqual(cells, ['cards', 'Cards', '3']);
  assert.ok(container.querySelector('table[aria-label="Stores"] button[aria-label="Copy id of Cards"]'));
  unmount();
});

/**
 * The dashboard's user page, sessions and API keys (issue 28 finding 9): each session row names
 * its browser, OS and (when the server has a GeoIP database) place; the page does not ask for user
 * API keys while the project has them off (the API answers 400, a failed request in the journey).
 * Rendered under happy-dom against a fake transport (ui/dashboard/test-harness.tsx).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { render, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT, PROJECT_ID, dashboard } from './test-harness.tsx';

const USER_ID = '8c1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

it('user page: session rows show browser, OS, place and last use, and user API keys are not asked for while off', async () => {
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/users/${USER_ID}`, (req) => {
    if (req.path === '/internal/projects')
      return {
        status: 200,
        body: { items: [{ ...PROJECT, config: { ...PROJECT.config, allow_user_api_keys: false } }], is_paginated: false },
      };
    if (req.path === `/users/${USER_ID}` && req.method === 'GET')
      return { status: 200, body: { id: USER_ID, display_name: 'Ada', primary_email: 'ada@example.com', signed_up_at_millis: 0 } };
    if (req.path.startsWith('/auth/sessions?'))
      return {
        status: 200,
        body: {
          items: [
            {
              id: '11111111-2222-4333-8444-555555555555',
              user_id: USER_ID,
              created_at: 0,
              last_used_at: 86_400_000,
              is_impersonation: false,
              is_current_session: false,
              user_agent: 'Mozilla/5.0 …',
              browser: 'Chrome 140',
              os: 'macOS Sonoma',
              last_used_at_end_user_ip_info: {
                ip: '81.2.3.4',
                countryCode: 'DE',
                regionCode: 'BE',
                cityName: 'Berlin',
                latitude: 52.52,
                longitude: 13.405,
                tzIdentifier: 'Europe/Berlin',
              },
            },
          ],
          is_paginated: false,
        },
      };
    if (req.path.startsWith('/passkeys?')) return { status: 200, body: { items: [], is_paginated: false } };
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Chrome 140 on macOS Sonoma');
  await waitForText(container, 'Berlin, BE, DE');
  await waitForText(container, 'User API keys are turned off for this project');
  assert.equal(
    calls.some((c) => c.path.startsWith('/user-api-keys')),
    false,
    'no request for user API keys while they are off',
  );
  await unmount();
});

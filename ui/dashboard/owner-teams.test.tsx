/**
 * The dashboard's team page under happy-dom with a fake transport:
 * members with emails and roles, which projects they reach, and removing one.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { click, render, waitFor, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT, dashboard } from './test-harness.tsx';

const TEAM = '11111111-2222-4333-8444-555555555555';

it('team page: lists members with emails and roles, names the projects they reach, and removes one after confirming', async () => {
  let members = [
    { user_id: 'owner', display_name: null, primary_email: 'owner@example.com', permission_ids: ['team_admin'] },
    { user_id: 'grace', display_name: 'Grace', primary_email: 'grace@example.com', permission_ids: ['team_member'] },
  ];
  const { api, calls } = dashboard('/team', (req) => {
    if (req.path.startsWith('/teams?'))
      return { status: 200, body: { items: [{ id: TEAM, display_name: 'Acme owners' }], is_paginated: false } };
    if (req.path === '/internal/projects')
      return { status: 200, body: { items: [{ ...PROJECT, owner_team_id: TEAM }], is_paginated: false } };
    if (req.path.startsWith('/internal/owner-team-members?')) return { status: 200, body: { items: members, is_paginated: false } };
    if (req.path.startsWith('/team-invitations?')) return { status: 200, body: { items: [], is_paginated: false } };
    if (req.path === `/team-memberships/${TEAM}/grace` && req.method === 'DELETE') {
      members = members.filter((m) => m.user_id !== 'grace');
      return { status: 200, body: { success: true } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'grace@example.com');
  const table = () => container.querySelector('table[aria-label="Members of Acme owners"]') as HTMLElement;
  assert.match(table().textContent ?? '', /owner@example\.com \(you\).*Admin/);
  assert.match(table().textContent ?? '', /grace@example\.comGraceMember/);
  assert.doesNotMatch(container.textContent ?? '', /Member grace/);
  assert.match(container.querySelector(`[data-testid="team-projects-${TEAM}"]`)?.textContent ?? '', /can manage Acme/);
  await click(table(), 'Remove');
  await click(table(), 'Yes, remove');
  await waitFor(
    () => !(container.textContent ?? '').includes('grace@example.com'),
    () => `still listed: ${container.textContent}`,
  );
  assert.ok(calls.some((c) => c.method === 'DELETE' && c.path === `/team-memberships/${TEAM}/grace`));
  await unmount();
});

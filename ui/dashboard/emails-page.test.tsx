/**
 * The email sources editor under happy-dom with a fake transport: on the
 * shared email server it says up front that templates need your own SMTP server, keeps edits
 * across tabs, and the themes editor reads each theme's source (the list has none).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { act, click, render, waitFor, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT_ID, dashboard, type Handler } from './test-harness.tsx';

const TEMPLATE = {
  id: 'tpl-1',
  display_name: 'Sign-in code',
  tsx_source: 'export function EmailTemplate() { return null; }',
  theme_id: null,
};
const THEME_SOURCE = 'export function EmailTheme({ children }) { return <div>{children}</div>; }';

function emailsApi(mutations: string[]): Handler {
  return (req) => {
    if (req.path === '/internal/email-templates' && req.method === 'GET') return { status: 200, body: { templates: [TEMPLATE] } };
    if (req.path === '/internal/email-themes' && req.method === 'GET')
      return { status: 200, body: { themes: [{ id: 'theme-1', display_name: 'Default Light' }] } };
    if (req.path === '/internal/email-themes/theme-1' && req.method === 'GET')
      return { status: 200, body: { id: 'theme-1', display_name: 'Default Light', tsx_source: THEME_SOURCE } };
    if (req.path === '/internal/email-drafts') return { status: 200, body: { drafts: [] } };
    if (req.path === '/emails/render-email') return { status: 200, body: { html: '<p>rendered</p>', subject: 'Hello' } };
    if (req.path.startsWith('/emails?') || req.path === '/emails') return { status: 200, body: { items: [], is_paginated: false } };
    if (req.method !== 'GET' && req.path.startsWith('/internal/email-')) {
      mutations.push(`${req.method} ${req.path}`);
      return {
        status: 400,
        knownError: 'REQUIRES_CUSTOM_EMAIL_SERVER',
        body: { code: 'REQUIRES_CUSTOM_EMAIL_SERVER', error: 'needs SMTP' },
      };
    }
    return undefined;
  };
}

/** Types into a textarea through the prototype's setter, as a user's typing reaches React. */
async function typeInto(area: HTMLTextAreaElement, text: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(area), 'value')!.set!.call(area, text);
    area.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
  });
}

it('on the shared email server: says templates need your own SMTP server before any save, and keeps an edit across tabs', async () => {
  const mutations: string[] = [];
  const { api } = dashboard(`/projects/${PROJECT_ID}/emails`, emailsApi(mutations));
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Sign-in code');
  assert.ok(container.querySelector('[data-testid="own-server-notice"]'), 'the limit is said up front');
  const editor = () => container.querySelector('#tsx-editor') as HTMLTextAreaElement;
  await typeInto(editor(), 'export function EmailTemplate() { return "edited"; }');
  const save = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Save')!;
  assert.equal(save.disabled, true, 'Save is not offered where it would fail');
  assert.match(container.textContent ?? '', /Needs your own SMTP server/);
  await click(container, 'Themes');
  await waitFor(
    () => editor()?.value === THEME_SOURCE,
    () => `theme source never shown: ${editor()?.value}`,
  );
  await waitFor(
    () => !!container.querySelector('iframe[title="Email preview"]'),
    () => `no theme preview: ${container.textContent}`,
  );
  await click(container, 'Templates');
  await waitFor(
    () => editor()?.value === 'export function EmailTemplate() { return "edited"; }',
    () => `edit lost: ${editor()?.value}`,
  );
  assert.deepEqual(mutations, []);
  await unmount();
});

/**
 * The dashboard's design system under happy-dom and <StrictMode> (ui/test-dom.tsx): the switch,
 * dialog (focus trap, Escape, focus return), toast, skeleton, copy value, the grouped sidebar,
 * the onboarding checklist ticking from real state, and the command palette.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { useState } from 'react';
import { act, flush, render, waitFor, waitForText } from '../test-dom.tsx';
import { DashboardRoot, PROJECT, PROJECT_ID, dashboard } from './test-harness.tsx';
import { Dialog } from './controls/dialog.tsx';
import { Switch } from './controls/switch.tsx';
import { ToastProvider } from './controls/toast.tsx';
import { CopyValue, Field, Form, Loading } from './kit.tsx';

// happy-dom has no canvas: the overview's uPlot charts draw into a stub context that accepts everything.
const canvasStub: unknown = new Proxy(function () {}, {
  get: (_t, k) => (k === Symbol.toPrimitive ? () => 0 : canvasStub),
  apply: () => canvasStub,
  set: () => true,
});
(window as unknown as { HTMLCanvasElement: { prototype: { getContext: () => unknown } } }).HTMLCanvasElement.prototype.getContext = () =>
  canvasStub;

const key = (target: EventTarget, k: string, init: KeyboardEventInit = {}) =>
  act(async () => {
    target.dispatchEvent(
      new (window as unknown as { KeyboardEvent: typeof KeyboardEvent }).KeyboardEvent('keydown', { key: k, bubbles: true, ...init }),
    );
  });

it('Switch: a role=switch button named by its label whose aria-checked follows clicks', async () => {
  function Harness() {
    const [on, setOn] = useState(false);
    return <Switch label="Magic link" checked={on} onChange={setOn} hint="sign in by email" />;
  }
  const { container, unmount } = await render(<Harness />);
  const sw = container.querySelector('[role=switch]') as HTMLButtonElement;
  assert.equal(sw.tagName, 'BUTTON');
  assert.equal(sw.getAttribute('aria-checked'), 'false');
  const label = document.getElementById(sw.getAttribute('aria-labelledby')!);
  assert.equal(label?.textContent, 'Magic link');
  await act(async () => sw.click());
  assert.equal(sw.getAttribute('aria-checked'), 'true');
  await unmount();
});

it('Dialog: focus moves in, Tab stays inside, Escape closes and focus returns to the opener; the form result is a toast', async () => {
  function Harness() {
    const [open, setOpen] = useState(false);
    const [name, setName] = useState('');
    return (
      <ToastProvider>
        <button type="button" onClick={() => setOpen(true)}>
          Create key
        </button>
        <Dialog title="Create a key" open={open} onClose={() => setOpen(false)}>
          <Form submit="Create" success="Key created" onSubmit={async () => {}} onDone={() => setOpen(false)}>
            <Field label="Description" value={name} onChange={setName} />
          </Form>
        </Dialog>
      </ToastProvider>
    );
  }
  const { container, unmount } = await render(<Harness />);
  const opener = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Create key')!;
  opener.focus();
  await act(async () => opener.click());
  await flush();
  const dialog = container.querySelector('[role=dialog]') as HTMLElement;
  assert.equal(dialog.getAttribute('aria-modal'), 'true');
  assert.equal(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent, 'Create a key');
  assert.equal(document.activeElement?.tagName, 'INPUT', 'the first field has focus');
  // Tab from the last control wraps to the first; Shift+Tab from the first wraps to the last.
  const focusables = Array.from(dialog.querySelectorAll<HTMLElement>('button,input'));
  focusables[focusables.length - 1]!.focus();
  await key(document.activeElement!, 'Tab');
  assert.equal(document.activeElement, focusables[0]);
  await key(document.activeElement!, 'Tab', { shiftKey: true });
  assert.equal(document.activeElement, focusables[focusables.length - 1]);
  await key(document.activeElement!, 'Escape');
  await flush();
  assert.equal(container.querySelector('[role=dialog]'), null, 'Escape closes');
  assert.equal(document.activeElement, opener, 'focus returns to the opener');
  // Submitting closes the dialog and announces the result in the live region.
  await act(async () => opener.click());
  await flush();
  const submit = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Create')!;
  await act(async () => submit.click());
  await flush(10);
  assert.equal(container.querySelector('[role=dialog]'), null);
  const status = container.querySelector('.d-toasts') as HTMLElement;
  assert.equal(status.getAttribute('role'), 'status');
  assert.equal(status.getAttribute('aria-live'), 'polite');
  assert.equal(status.textContent, 'Key created');
  await unmount();
});

it('Loading shows a labelled status and skeleton lines; CopyValue puts a named Copy button beside a secret', async () => {
  const { container, unmount } = await render(
    <>
      <Loading label="Loading keys…" lines={2} />
      <CopyValue value="ssk_123" label="secret server key" />
    </>,
  );
  assert.equal(container.querySelector('[role=status]')?.textContent, 'Loading keys…');
  assert.equal(container.querySelectorAll('.d-skeleton').length, 2);
  assert.ok(container.querySelector('button[aria-label="Copy secret server key"]'));
  assert.equal(container.querySelector('code')?.textContent, 'ssk_123');
  await unmount();
});

/** Answers of a new project: one user, a trusted domain, no email sent, no owner team. */
function newProjectApi(extra: (path: string) => { status: number; body: unknown } | undefined = () => undefined, page = '') {
  const project = { ...PROJECT, config: { ...PROJECT.config, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] } };
  return dashboard(`/projects/${PROJECT_ID}${page}`, (req) => {
    const hit = extra(req.path);
    if (hit) return hit;
    if (req.path === '/internal/projects') return { status: 200, body: { items: [project], is_paginated: false } };
    if (req.path.startsWith('/internal/metrics'))
      return { status: 200, body: { total_users: 1, daily_users: [], daily_active_users: [], recently_registered: [] } };
    if (req.path.startsWith('/internal/emails')) return { status: 200, body: { items: [], is_paginated: false } };
    return undefined;
  });
}

it('overview: the onboarding checklist ticks the steps the project has done, from its real state', async () => {
  const { api } = newProjectApi();
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Get started');
  const done = (step: string) => container.querySelector(`[data-step=${step}]`)?.hasAttribute('data-done');
  assert.equal(done('connect'), true, 'a user signed up');
  assert.equal(done('domain'), true, 'a trusted domain');
  assert.equal(done('methods'), false);
  assert.equal(done('email'), false);
  assert.equal(done('teammate'), false);
  assert.match(container.textContent ?? '', /2 of 5 done/);
  assert.equal(container.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow'), '2');
  await unmount();
});

it('sidebar: project pages grouped under Build, Users and Settings, each with an icon', async () => {
  const { api } = newProjectApi(undefined, '/connect');
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Project keys');
  const nav = container.querySelector('nav[aria-label=Project]')!;
  const groups = Array.from(nav.querySelectorAll('[role=group]')).map((g) => ({
    name: container.querySelector(`#${g.getAttribute('aria-labelledby')}`)?.textContent,
    links: Array.from(g.querySelectorAll('a')).map((a) => a.textContent),
  }));
  assert.deepEqual(groups, [
    { name: 'Build', links: ['Auth methods', 'Project keys', 'Emails', 'Webhooks', 'Payments', 'Data vault'] },
    { name: 'Users', links: ['Users', 'Teams', 'Permissions', 'Import users'] },
    { name: 'Settings', links: ['Configuration', 'Project settings'] },
  ]);
  assert.ok(Array.from(nav.querySelectorAll('a')).every((a) => a.querySelector('svg[aria-hidden=true]')));
  await unmount();
});

it('command palette: Ctrl+K opens it, it finds pages and users (via the users list API), Enter goes there, Escape returns focus', async () => {
  const user = {
    id: '8d1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    display_name: 'Ada',
    primary_email: 'ada@example.com',
    primary_email_verified: true,
    signed_up_at_millis: 0,
  };
  const { api, calls } = newProjectApi((path) => {
    if (path.startsWith('/users?'))
      return {
        status: 200,
        body: { items: path.includes('query=ada') ? [user] : [], is_paginated: true, pagination: { next_cursor: null } },
      };
    if (path.startsWith('/teams')) return { status: 200, body: { items: [{ id: 't1', display_name: 'Adapters', created_at_millis: 0 }] } };
    if (path === `/users/${user.id}`) return { status: 200, body: user };
    return undefined;
  }, '/connect');
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Project keys');
  const before = container.querySelector('main') as HTMLElement;
  before.focus();
  await key(document.body, 'k', { ctrlKey: true });
  await flush();
  const input = container.querySelector('[role=dialog] [role=combobox]') as HTMLInputElement;
  assert.ok(input, 'the palette opened');
  assert.equal(document.activeElement, input);
  const options = () => Array.from(container.querySelectorAll('[role=option]')).map((o) => o.textContent);
  assert.ok(
    options().some((o) => o?.startsWith('Webhooks')),
    'pages are listed',
  );
  await act(async () => {
    input.value = 'ada';
    input.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
  });
  await waitFor(
    () => options().some((o) => o?.includes('ada@example.com')),
    () => `options: ${options().join(' | ')}`,
  );
  assert.ok(calls.some((c) => c.path.startsWith('/users?') && c.path.includes('query=ada')));
  assert.ok(
    options().some((o) => o === 'AdaptersTeam'),
    'teams matching the name',
  );
  // Arrow down to the user, Enter opens the user's page.
  const index = options().findIndex((o) => o?.includes('ada@example.com'));
  for (let i = 0; i < index; i++) await key(input, 'ArrowDown');
  assert.equal(input.getAttribute('aria-activedescendant'), container.querySelectorAll('[role=option]')[index]!.id);
  await key(input, 'Enter');
  await flush(10);
  assert.equal(container.querySelector('[role=dialog]'), null);
  assert.equal(location.pathname, `/projects/${PROJECT_ID}/users/${user.id}`);
  // Escape closes and gives focus back.
  const opener = container.querySelector('.d-palette-btn') as HTMLButtonElement;
  opener.focus();
  await act(async () => opener.click());
  await flush();
  assert.ok(container.querySelector('[role=dialog]'));
  await key(document.activeElement!, 'Escape');
  await flush();
  assert.equal(container.querySelector('[role=dialog]'), null);
  assert.equal(document.activeElement, opener);
  await unmount();
});

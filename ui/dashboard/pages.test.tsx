/**
 * Dashboard page tests under happy-dom (ui/test-dom.tsx): a fake transport answers the API, so the
 * loading, error (with retry), empty and data states of pages are checked without a server.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { act, click, flush, render, type, waitForText } from '../test-dom.tsx';
import { ACCESS, DashboardRoot, PROJECT, PROJECT_ID, dashboard, type Handler } from './test-harness.tsx';

it('users page: shows the server error with a retry, then the empty state, then a search hit', async () => {
  // Fails until Retry is pressed (StrictMode may load twice on mount).
  let retried = false;
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/users`, (req) => {
    if (!req.path.startsWith('/users?')) return undefined;
    if (!retried) return { status: 400, body: 'cursor does not name a user of this project' };
    if (req.path.includes('query=ada'))
      return {
        status: 200,
        body: {
          items: [
            { id: 'u1', display_name: 'Ada', primary_email: 'ada@example.com', primary_email_verified: true, signed_up_at_millis: 0 },
          ],
          is_paginated: true,
          pagination: { next_cursor: null },
        },
      };
    return { status: 200, body: { items: [], is_paginated: true, pagination: { next_cursor: null } } };
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'cursor does not name a user of this project');
  retried = true;
  await click(container, 'Retry');
  await waitForText(container, 'No users yet.');
  const usersCall = calls.find((c) => c.path.startsWith('/users?'))!;
  assert.equal(usersCall.headers['x-stack-access-type'], 'admin');
  assert.equal(usersCall.headers['x-stack-project-id'], PROJECT_ID);
  assert.equal(usersCall.headers['x-stack-admin-access-token'], ACCESS);
  assert.match(usersCall.path, /limit=25&order_by=signed_up_at&desc=true/);
  const search = container.querySelector('input[type=search]') as HTMLInputElement;
  search.value = 'ada';
  search.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('input', { bubbles: true }));
  await new Promise((r) => setTimeout(r, 300));
  await waitForText(container, 'ada@example.com');
  await unmount();
});

it('project keys page: the empty state, then the values shown once with the env snippet', async () => {
  const { api } = dashboard(`/projects/${PROJECT_ID}/keys`, (req) => {
    if (req.path === '/internal/api-keys' && req.method === 'GET') return { status: 200, body: { items: [], is_paginated: false } };
    if (req.path === '/internal/api-keys' && req.method === 'POST')
      return {
        status: 200,
        body: {
          id: 'k1',
          description: 'Web',
          created_at_millis: 0,
          expires_at_millis: null,
          publishable_client_key: 'pck_value',
          secret_server_key: 'ssk_value',
        },
      };
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'No keys yet.');
  await click(container, 'New keys');
  await type(container, 'Description', 'Web');
  const form = container.querySelector('form[aria-label="Create keys"]') as HTMLFormElement;
  form.dispatchEvent(new (window as unknown as { Event: typeof Event }).Event('submit', { bubbles: true, cancelable: true }));
  await flush();
  await waitForText(container, 'These values are shown only once.');
  assert.match(container.textContent ?? '', new RegExp(`NEXT_PUBLIC_STACK_PROJECT_ID=${PROJECT_ID}`));
  assert.match(container.textContent ?? '', /STACK_SECRET_SERVER_KEY=ssk_value/);
  await unmount();
});

it('project keys page: a new key as the server lists it (no manually_revoked_at_millis) is active and can be revoked', async () => {
  let revoked = false;
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/keys`, (req) => {
    const key = {
      id: 'k1',
      description: 'Web',
      created_at_millis: 0,
      expires_at_millis: null,
      secret_server_key: { last_four: 'abcd' },
      ...(revoked ? { manually_revoked_at_millis: 5 } : {}),
    };
    if (req.path === '/internal/api-keys' && req.method === 'GET') return { status: 200, body: { items: [key], is_paginated: false } };
    if (req.path === '/internal/api-keys/k1' && req.method === 'PATCH') {
      revoked = true;
      return { status: 200, body: { ...key, manually_revoked_at_millis: 5 } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, '…abcd');
  const row = () => Array.from(container.querySelectorAll('tbody tr')).find((r) => r.textContent?.includes('Web'))!;
  assert.match(row().textContent ?? '', /Active/);
  await click(row() as HTMLElement, 'Revoke');
  await click(row() as HTMLElement, 'Yes, revoke');
  await waitForText(row() as HTMLElement, 'Revoked');
  assert.deepEqual(JSON.parse(calls.find((c) => c.method === 'PATCH')!.body!), { revoked: true });
  assert.equal(
    Array.from(row().querySelectorAll('button')).some((b) => b.textContent === 'Revoke'),
    false,
    'a revoked key offers no revoke button',
  );
  await unmount();
});

it('auth methods page: offers the passkey switch and OAuth providers only when the server can do them', async () => {
  const answer: Handler = (req) =>
    req.path === '/internal/projects/current'
      ? { status: 200, body: { ...PROJECT, config: { ...PROJECT.config, oauth_providers: [] } } }
      : undefined;
  const without = dashboard(`/projects/${PROJECT_ID}/auth-methods`, answer, { passkey: false, oauth: false, mfa: false });
  const a = await render(<DashboardRoot api={without.api} />);
  await waitForText(a.container, 'Magic link / one-time code');
  assert.equal(/Passkey/.test(a.container.textContent ?? ''), false, 'no passkey switch');
  assert.equal(a.container.querySelector('select#oauth-type'), null, 'no OAuth provider form');
  assert.match(a.container.textContent ?? '', /not available on this server version/);
  await a.unmount();
  const full = dashboard(`/projects/${PROJECT_ID}/auth-methods`, answer, { passkey: true, oauth: true, mfa: true });
  const b = await render(<DashboardRoot api={full.api} />);
  await waitForText(b.container, 'Passkey');
  await click(b.container, 'New provider');
  assert.ok(b.container.querySelector('[role="dialog"] select#oauth-type'), 'the OAuth provider form once the server has the routes');
  await b.unmount();
});

it('confirm buttons: the confirm takes focus, Escape cancels back to the button, and a done action never drops focus to the body', async () => {
  let revoked = false;
  const { api } = dashboard(`/projects/${PROJECT_ID}/keys`, (req) => {
    const key = {
      id: 'k1',
      description: 'Web',
      created_at_millis: 0,
      expires_at_millis: null,
      secret_server_key: { last_four: 'abcd' },
      ...(revoked ? { manually_revoked_at_millis: 5 } : {}),
    };
    if (req.path === '/internal/api-keys' && req.method === 'GET') return { status: 200, body: { items: [key], is_paginated: false } };
    if (req.path === '/internal/api-keys/k1' && req.method === 'PATCH') {
      revoked = true;
      return { status: 200, body: { ...key, manually_revoked_at_millis: 5 } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, '…abcd');
  const revoke = () => Array.from(container.querySelectorAll('tbody button')).find((b) => b.textContent === 'Revoke') as HTMLButtonElement;
  await act(async () => {
    revoke().click();
  });
  await flush();
  assert.equal(document.activeElement?.textContent, 'Yes, revoke', 'the confirm button takes focus');
  await act(async () => {
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });
  await flush();
  assert.equal(document.activeElement, revoke(), 'Escape goes back to the button');
  await act(async () => {
    revoke().click();
  });
  await flush();
  await act(async () => {
    (document.activeElement as HTMLButtonElement).click();
  });
  await waitForText(container, 'Revoked');
  await new Promise((r) => setTimeout(r, 10));
  assert.notEqual(document.activeElement, document.body, 'focus is not dropped to the body');
  assert.equal(document.activeElement?.tagName, 'H2', 'the section heading takes focus when the button is gone');
  await unmount();
});

it('a disabled submit stays focusable and says why; a field problem is announced politely', async () => {
  const { api } = dashboard(
    `/projects/${PROJECT_ID}/auth-methods`,
    (req) => (req.path === '/internal/projects/current' ? { status: 200, body: PROJECT } : undefined),
    { passkey: true, oauth: true, mfa: true },
  );
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await click(container, 'New trusted domain');
  await waitForText(container, 'Add domain');
  const add = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Add domain')!;
  assert.equal(add.hasAttribute('disabled'), false, 'focusable');
  assert.equal(add.getAttribute('aria-disabled'), 'true');
  const why = container.querySelector(`[id="${add.getAttribute('aria-describedby')}"]`);
  assert.equal(why?.textContent, 'Enter a domain to add.');
  await type(container, 'Domain', 'https://bad..example.com');
  await flush();
  const domain = Array.from(container.querySelectorAll('input')).find((i) => i.getAttribute('name') === 'domain')!;
  const error = container.querySelector(`[id="${domain.getAttribute('aria-describedby')}"]`)!;
  assert.match(error.textContent ?? '', /Not a valid domain/);
  assert.equal(error.getAttribute('aria-live'), 'polite');
  await unmount();
});

it('project settings: branding refuses an accent colour below 4.5:1 and saves valid colours and links', async () => {
  const patches: unknown[] = [];
  const { api } = dashboard(`/projects/${PROJECT_ID}/settings`, (req) => {
    if (req.path === '/internal/projects/current' && req.method === 'GET')
      return {
        status: 200,
        body: {
          ...PROJECT,
          logo_url: null,
          config: {
            ...PROJECT.config,
            branding: { accent_color_light: null, accent_color_dark: null, terms_of_service_url: null, privacy_policy_url: null },
          },
        },
      };
    if (req.path === '/internal/projects/current' && req.method === 'PATCH') {
      patches.push(JSON.parse(req.body!));
      return { status: 200, body: PROJECT };
    }
    if (req.path.startsWith('/teams')) return { status: 200, body: { items: [] } };
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Save branding');
  await type(container, 'Accent colour, light mode', '#ffff00');
  await waitForText(container, 'links need at least 4.5:1');
  const save = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Save branding')!;
  assert.equal(save.getAttribute('aria-disabled'), 'true');
  await type(container, 'Accent colour, light mode', '#1d4ed8');
  await type(container, 'Accent colour, dark mode', '#93b4ff');
  await type(container, 'Terms of service URL', 'https://example.com/terms');
  await click(container, 'Save branding');
  await flush();
  assert.deepEqual(patches[0], {
    logo_url: null,
    config: {
      branding: {
        accent_color_light: '#1d4ed8',
        accent_color_dark: '#93b4ff',
        terms_of_service_url: 'https://example.com/terms',
        privacy_policy_url: null,
      },
    },
  });
  await unmount();
});

it('OAuth providers section: defaults to standard, explains shared, shows the callback URL to register for a standard provider, and adds a generic OpenID Connect provider', async () => {
  const config = {
    ...PROJECT.config,
    oauth_providers: [{ id: 'github', type: 'standard', enabled: true, client_id: 'gh-client', client_secret: 'gh-secret' }],
  };
  const answer: Handler = (req) => {
    if (req.path !== '/internal/projects/current') return undefined;
    return { status: 200, body: { ...PROJECT, config } };
  };
  const { api } = dashboard(`/projects/${PROJECT_ID}/auth-methods`, answer, { passkey: true, oauth: true, mfa: true });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'gh-client');
  const url = container.querySelector('[data-testid="callback-url-github"]')?.textContent ?? '';
  assert.match(url, /\/api\/v1\/auth\/oauth\/callback\/github$/);
  await click(container, 'New provider');
  const kind = container.querySelector('select#oauth-type') as HTMLSelectElement;
  assert.equal(kind.value, 'standard', 'a new provider defaults to standard (own credentials), never the development provider');
  assert.ok(container.querySelector('input[name="client_id"]'), 'standard asks for the client ID');
  assert.equal(container.querySelector('[data-testid="oauth-shared-explained"]'), null);
  await act(async () => {
    kind.value = 'shared';
    kind.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await flush();
  assert.match(
    container.querySelector('[data-testid="oauth-shared-explained"]')?.textContent ?? '',
    /any email.*never verified.*production mode/,
  );
  const select = container.querySelector('select#oauth-id') as HTMLSelectElement;
  await act(async () => {
    select.value = '__oidc__';
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await flush();
  assert.ok(container.querySelector('input[name="oauth_issuer_url"]'), 'a generic provider asks for its issuer');
  assert.equal(container.querySelector('select#oauth-type'), null, 'generic providers are always standard');
  await unmount();
});

it('a failed background refresh keeps the page and what was typed, with the error above it', async () => {
  // The reload after the save fails (StrictMode may load twice on mount).
  let saved = false;
  const { api } = dashboard(
    `/projects/${PROJECT_ID}/auth-methods`,
    (req) => {
      if (req.path === '/internal/projects/current' && req.method === 'GET')
        return !saved ? { status: 200, body: PROJECT } : { status: 500, body: 'database unavailable' };
      if (req.path === '/internal/projects/current' && req.method === 'PATCH') {
        saved = true;
        return { status: 200, body: PROJECT };
      }
      return undefined;
    },
    { passkey: true, oauth: true, mfa: true },
  );
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await click(container, 'New trusted domain');
  await waitForText(container, 'Add domain');
  await type(container, 'Domain', 'https://half-typed.example.com');
  const magic = Array.from(container.querySelectorAll('[role=switch]')).find((i) =>
    i.parentElement?.textContent?.includes('Magic link'),
  ) as HTMLButtonElement;
  await act(async () => {
    magic.click();
  });
  await flush(10);
  await waitForText(container, 'database unavailable');
  const domain = Array.from(container.querySelectorAll('input')).find((i) => i.getAttribute('name') === 'domain')!;
  assert.equal(domain.value, 'https://half-typed.example.com', 'the form stays with its text');
  await unmount();
});

it('an unknown project id says so instead of failing', async () => {
  const { api } = dashboard('/projects/00000000-0000-4000-8000-000000000000', () => undefined);
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'This project does not exist or you do not manage it.');
  await unmount();
});

it('a session the server no longer accepts goes back to the sign-in page', async () => {
  const { api } = dashboard('/', (req) =>
    req.path === '/users/me'
      ? {
          status: 400,
          knownError: 'CANNOT_GET_OWN_USER_WITHOUT_USER',
          body: { code: 'CANNOT_GET_OWN_USER_WITHOUT_USER', error: 'No user.' },
        }
      : req.path.startsWith('/auth/sessions/current')
        ? { status: 200, body: { success: true } }
        : undefined,
  );
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Sign in to Gatehouse');
  assert.equal(api.signedIn, false);
  await unmount();
});

it("user page: lists the user's passkeys and removes one through DELETE /passkeys/{user_id}/{id}", async () => {
  const USER_ID = '7b1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  let keys = [
    {
      id: 'pk1',
      user_id: USER_ID,
      credential_id: 'AAECAwQFBgcICQoLDA0ODxAREhM',
      device_type: 'multiDevice',
      backed_up: true,
      transports: ['internal', 'hybrid'],
      created_at_millis: 0,
      last_used_at_millis: null,
    },
  ];
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/users/${USER_ID}`, (req) => {
    if (req.path === `/users/${USER_ID}`)
      return {
        status: 200,
        body: {
          id: USER_ID,
          display_name: 'Ada',
          primary_email: 'ada@example.com',
          signed_up_at_millis: 0,
          passkey_auth_enabled: keys.length > 0,
        },
      };
    if (req.path === `/passkeys?user_id=${USER_ID}`) return { status: 200, body: { items: keys, is_paginated: false } };
    if (req.method === 'DELETE' && req.path === `/passkeys/${USER_ID}/pk1`) {
      keys = [];
      return { status: 200, body: { success: true } };
    }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'synced · internal, hybrid');
  const table = () => container.querySelector('table[aria-label="Passkeys"]') as HTMLElement;
  assert.match(table().textContent ?? '', /AAECAwQFBgcI…/);
  await click(table(), 'Remove');
  await click(table(), 'Yes, remove');
  await waitForText(container, 'No passkeys.');
  assert.ok(calls.some((c) => c.method === 'DELETE' && c.path === `/passkeys/${USER_ID}/pk1`));
  await unmount();
});

it('user page: shows that a user has TOTP and lets an admin remove it with PATCH totp_secret_base64 null', async () => {
  const USER_ID = '8c1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  let totp = true;
  const { api, calls } = dashboard(`/projects/${PROJECT_ID}/users/${USER_ID}`, (req) => {
    if (req.path === `/users/${USER_ID}` && req.method === 'GET')
      return {
        status: 200,
        body: { id: USER_ID, display_name: 'Ada', primary_email: 'ada@example.com', signed_up_at_millis: 0, requires_totp_mfa: totp },
      };
    if (req.path === `/users/${USER_ID}` && req.method === 'PATCH') {
      totp = false;
      return { status: 200, body: { id: USER_ID, requires_totp_mfa: false } };
    }
    if (req.path.startsWith('/passkeys?')) return { status: 200, body: { items: [], is_paginated: false } };
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'On: sign-in asks for an authenticator code (TOTP).');
  const section = () => container.querySelector('[data-testid=user-totp]')!.parentElement as HTMLElement;
  await click(section(), 'Remove two-factor');
  await click(section(), 'Yes, remove two-factor');
  await waitForText(container, 'Off.');
  const patch = calls.find((c) => c.method === 'PATCH' && c.path === `/users/${USER_ID}`)!;
  assert.deepEqual(JSON.parse(patch.body!), { totp_secret_base64: null });
  await unmount();
});

it('connect your app: the project id, base URL, hosted-page URLs and snippets for @stackframe/js, the Gatehouse SDK and the mount', async () => {
  const { api } = dashboard(`/projects/${PROJECT_ID}/connect`, () => undefined);
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'What your app needs');
  const values = container.querySelector('[data-testid="connect-values"]')!.textContent ?? '';
  assert.match(values, new RegExp(PROJECT_ID));
  assert.match(values, /http:\/\/localhost:3000(?!\/api)/);
  assert.match(values, new RegExp(`http://localhost:3000/projects/${PROJECT_ID}/handler/sign-in`));
  const stack = container.querySelector('[data-testid="snippet-stack"]')!.textContent ?? '';
  assert.match(stack, /from '@stackframe\/js'/);
  assert.match(stack, new RegExp(`projectId: '${PROJECT_ID}'`));
  assert.match(stack, new RegExp(`signIn: 'http://localhost:3000/projects/${PROJECT_ID}/handler/sign-in'`));
  assert.match(stack, /baseUrl: 'http:\/\/localhost:3000'/);
  assert.match(
    container.querySelector('[data-testid="snippet-gatehouse"]')!.textContent ?? '',
    /from 'gatehouse-sdk'[\s\S]*from 'gatehouse-react'/,
  );
  assert.match(
    container.querySelector('[data-testid="snippet-mount"]')!.textContent ?? '',
    /createGatehouse\(\{[^}]*mountPath: '\/auth'[\s\S]*new ServerApp\(\{[^}]*gatehouse,/,
  );
  assert.match(
    container.querySelector('[data-testid="snippet-env"]')!.textContent ?? '',
    new RegExp(`NEXT_PUBLIC_STACK_PROJECT_ID=${PROJECT_ID}`),
  );
  // No trusted domain yet: the panel says so and where to add one; localhost is allowed.
  assert.match(container.querySelector('[data-testid="connect-domains"]')!.textContent ?? '', /No trusted domain yet.*except localhost/);
  // The nav names the page, and the panel never prints a key value.
  assert.ok(
    [...container.querySelectorAll('nav a')].some((a) => a.textContent === 'Connect your app' && a.getAttribute('aria-current') === 'page'),
  );
  assert.doesNotMatch(container.textContent ?? '', /pck_[a-z0-9]|ssk_[a-z0-9]/);
  await unmount();
});

import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { StrictMode, type ReactNode } from 'react';
import { act, captureAssign, click, flush, render, type, waitFor, waitForText } from './test-dom.tsx';
import { ClientApp } from '../sdk/client-app.ts';
import { manualEnvironment } from '../sdk/env.ts';
import { GatehouseProvider } from '../sdk/react.tsx';
import { fakeJwt, fakeTransport, type FakeAnswer } from '../sdk/test-support.ts';
import { memoryTokenStore } from '../sdk/tokens.ts';
import type { TransportRequest } from '../sdk/transport.ts';
import { OAuthButtonGroup, SignIn, SignUp } from './index.ts';
import { TURNSTILE_SCRIPT_URL } from './components/bot-challenge.tsx';

const SITE_KEY = '0x4AAAAAAAtest-site-key';
const CONFIG = {
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  client_team_creation_enabled: true,
  client_user_deletion_enabled: true,
  allow_user_api_keys: false,
  allow_team_api_keys: false,
  enabled_oauth_providers: [{ id: 'github' }],
};
const project = (siteKey: string | null) => ({
  id: 'internal',
  display_name: 'Acme',
  config: { ...CONFIG, bot_challenge_site_key: siteKey },
});
const TOKENS = { access_token: fakeJwt({ sub: 'u1' }), refresh_token: 'rt', user_id: 'u1' };

function makeApp(
  siteKey: string | null,
  route: (req: TransportRequest, body: Record<string, unknown>) => FakeAnswer | undefined = () => undefined,
) {
  const visited: string[] = [];
  const transport = fakeTransport((req) => {
    const own = route(req, req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {});
    if (own) return own;
    const path = req.path.split('?')[0];
    if (path === '/projects/current') return { json: project(siteKey) };
    if (path === '/users/me') return { json: null };
    if (path === '/auth/password/sign-up' || path === '/auth/password/sign-in') return { json: TOKENS };
    return { json: {} };
  });
  const app = new ClientApp({
    projectId: 'internal',
    transport,
    environment: manualEnvironment({ start: Date.now() }),
    tokenStore: memoryTokenStore(),
    redirectMethod: {
      navigate: (u) => {
        visited.push(u);
      },
    },
  });
  return { app, transport, visited };
}

const mounted: (() => Promise<void>)[] = [];
after(async () => {
  for (const u of mounted) await u();
});
async function show(app: ClientApp, element: ReactNode) {
  const r = await render(
    <StrictMode>
      <GatehouseProvider app={app}>{element}</GatehouseProvider>
    </StrictMode>,
  );
  mounted.push(r.unmount);
  return r.container;
}

/** A stand-in for Cloudflare's `window.turnstile` (the network edge we do not own). */
function fakeTurnstile() {
  const widgets = new Map<string, { container: HTMLElement; options: Record<string, any> }>();
  let next = 0;
  const api = {
    render(container: HTMLElement, options: Record<string, any>) {
      const id = `w${++next}`;
      widgets.set(id, { container, options });
      return id;
    },
    execute(id: string) {
      const w = widgets.get(id);
      queueMicrotask(() => w?.options.callback('tok-invisible'));
    },
    remove(id: string) {
      widgets.delete(id);
    },
  };
  (window as unknown as { turnstile?: unknown }).turnstile = api;
  return { widgets, visible: () => [...widgets.values()].filter((w) => w.options.appearance === 'always') };
}

const scripts = () => Array.from(document.querySelectorAll('script')).filter((s) => s.src.includes('challenges.cloudflare.com'));
const body = (transport: ReturnType<typeof makeApp>['transport'], path: string) =>
  transport.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body!) as Record<string, unknown>);

afterEach(() => {
  delete (window as unknown as { turnstile?: unknown }).turnstile;
  for (const s of scripts()) s.remove();
});

describe('bot challenge in the sign-in forms (Cloudflare Turnstile, issue 27)', () => {
  it('fetches nothing from Cloudflare and sends no challenge fields when the project has no site key', async () => {
    const { app, transport } = makeApp(null);
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Create');
    await type(c, 'Email', 'ada@example.com');
    await type(c, 'Password', 'velvet tractor 93');
    await click(c, /^Sign up$/);
    await flush();
    assert.deepEqual(
      Object.keys(body(transport, '/auth/password/sign-up')[0]!).filter((k) => k.startsWith('bot_challenge')),
      [],
    );
    assert.equal(scripts().length, 0, 'no Cloudflare script');
  });

  it('loads the documented script only with a site key, and says unavailable when it cannot load', async () => {
    const { app, transport } = makeApp(SITE_KEY);
    // This test DOM cannot run scripts: every load fails (as a blocked or offline Cloudflare would).
    const appended: string[] = [];
    const head = document.head as unknown as { appendChild: (n: Node) => Node };
    const original = head.appendChild.bind(head);
    head.appendChild = (n: Node) => {
      if ((n as HTMLScriptElement).src) appended.push((n as HTMLScriptElement).src);
      return original(n);
    };
    try {
      const c = await show(app, <SignIn />);
      await waitForText(c, 'Email');
      assert.deepEqual(appended, [TURNSTILE_SCRIPT_URL], 'loaded ahead, once');
      await type(c, 'Email', 'ada@example.com');
      await type(c, 'Password', 'velvet tractor 93');
      await click(c, /^Sign in$/);
      await flush();
    } finally {
      head.appendChild = original;
    }
    assert.equal(scripts().length, 0, 'failed loads leave no script behind');
    assert.deepEqual(body(transport, '/auth/password/sign-in')[0], {
      email: 'ada@example.com',
      password: 'velvet tractor 93',
      bot_challenge_unavailable: 'true',
    });
  });

  it('sends the invisible token first, then on BOT_CHALLENGE_REQUIRED shows one visible widget in the form and retries with its token', async () => {
    const turnstile = fakeTurnstile();
    const { app, transport, visited } = makeApp(SITE_KEY, (req, b) =>
      req.path === '/auth/password/sign-up' && b.bot_challenge_phase === 'invisible'
        ? { status: 409, knownError: 'BOT_CHALLENGE_REQUIRED' }
        : undefined,
    );
    const c = await show(app, <SignUp />);
    await waitForText(c, 'Create');
    await type(c, 'Email', 'ada@example.com');
    await type(c, 'Password', 'velvet tractor 93');
    await click(c, /^Sign up$/);
    await waitForText(c, 'Please complete the security check to continue.');
    assert.equal(turnstile.visible().length, 1, 'one visible widget, even under StrictMode');
    const widget = turnstile.visible()[0]!;
    assert.ok(c.contains(widget.container), 'rendered in the form');
    assert.equal(widget.options.sitekey, SITE_KEY);
    assert.equal(widget.options.action, 'sign_up_with_credential');
    assert.equal(scripts().length, 0, 'an API already on the page is used as is');
    await act(async () => {
      widget.options.callback('tok-visible');
    });
    await flush();
    const sent = body(transport, '/auth/password/sign-up');
    assert.deepEqual(
      sent.map((b) => [b.bot_challenge_token, b.bot_challenge_phase]),
      [
        ['tok-invisible', 'invisible'],
        ['tok-visible', 'visible'],
      ],
    );
    assert.equal(turnstile.widgets.size, 0, 'every widget removed');
    assert.equal(visited.length, 1, 'signed up and redirected');
  });

  it('starts OAuth through the challenge: the authorize call carries the token and the browser goes to the answered location', async () => {
    fakeTurnstile();
    const { app, transport } = makeApp(SITE_KEY, (req) =>
      req.path.startsWith('/auth/oauth/authorize/github') ? { json: { location: 'https://github.example/login' } } : undefined,
    );
    const assigned = await captureAssign(async (navigations) => {
      const c = await show(app, <OAuthButtonGroup type="sign-in" />);
      await waitForText(c, 'Sign in with GitHub');
      await click(c, /Sign in with GitHub/);
      await waitFor(
        () => navigations.length > 0,
        () => 'no navigation to the authorize URL',
      );
    });
    const call = transport.requests.find((r) => r.path.startsWith('/auth/oauth/authorize/github'))!;
    const query = new URL(call.path, 'http://x').searchParams;
    assert.equal(query.get('bot_challenge_token'), 'tok-invisible');
    assert.equal(query.get('bot_challenge_phase'), 'invisible');
    assert.equal(query.get('stack_response_mode'), 'json');
    assert.deepEqual(assigned, ['https://github.example/login']);
  });
});

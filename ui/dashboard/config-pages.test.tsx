/**
 * Configuration and data-vault dashboard pages (issue 16) under happy-dom, with a fake transport
 * (the same harness as pages.test.tsx).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { act, click, flush, render, setUrl, waitForText } from '../test-dom.tsx';
import type { TransportRequest, TransportResponse } from '../../sdk/transport.ts';

// uPlot reads window globals when its module loads: import the app after the DOM globals exist.
(globalThis as Record<string, unknown>).devicePixelRatio ??= 1;
Object.defineProperty(globalThis, 'CustomEvent', { value: (window as unknown as { CustomEvent: unknown }).CustomEvent, configurable: true, writable: true });
(globalThis as Record<string, unknown>).matchMedia ??= (window as unknown as { matchMedia: unknown }).matchMedia;
const { DashboardApi } = await import('./api.ts');
const { DashboardRoot } = await import('./app.tsx');

const PROJECT_ID = '3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const ACCESS = `${b64({ alg: 'ES256' })}.${b64({ sub: 'owner', aud: 'internal', exp: Math.floor(Date.now() / 1000) + 3600, iat: Math.floor(Date.now() / 1000) })}.sig`;
const PROJECT = { id: PROJECT_ID, display_name: 'Acme', description: null, created_at_millis: 0, is_production_mode: false, owner_team_id: null, config: { allow_localhost: true, domains: [] } };

type Handler = (req: TransportRequest) => { status: number; body: unknown; knownError?: string } | undefined;
function fakeTransport(handler: Handler) {
  const calls: TransportRequest[] = [];
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    calls.push(req);
    const answer = handler(req) ?? (req.path === '/users/me' ? { status: 200, body: { id: 'owner', primary_email: 'owner@example.com', display_name: null } }
      : req.path === '/internal/projects' ? { status: 200, body: { items: [PROJECT], is_paginated: false } } : { status: 404, body: 'not found' });
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const headers = new Headers({ 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...('knownError' in answer && answer.knownError ? { 'x-stack-known-error': answer.knownError } : {}) });
    return { status: answer.status, headers, text };
  };
  return { transport, calls };
}

function dashboard(path: string, handler: Handler, capabilities?: { passkey: boolean; oauth: boolean; mfa: boolean }) {
  setUrl(path);
  const fake = fakeTransport(handler);
  const api = new DashboardApi({ firstRun: false, signUpOpen: false, serverPath: path, ...(capabilities ? { capabilities } : {}) }, { origin: 'http://localhost:3000', pathname: path }, { transport: fake.transport, tokenStore: { accessToken: ACCESS, refreshToken: 'refresh' } });
  return { api, calls: fake.calls };
}

it('configuration page: shows each value with the level it came from, masks secrets, and saves the environment override', async () => {
  let saved: unknown = null;
  const { api } = dashboard(`/projects/${PROJECT_ID}/config`, (req) => {
    if (req.path === '/internal/config') return { status: 200, body: { config_string: JSON.stringify({ auth: { otp: { allowSignIn: true }, oauth: { providers: { google: { clientSecret: 'gsec-123' } } } }, teams: { allowClientTeamCreation: false } }) } };
    if (req.path === '/internal/config/origins') return { status: 200, body: { origins: { 'auth.otp.allowSignIn': 'environment', 'auth.oauth.providers.google.clientSecret': 'environment' }, source: { type: 'pushed-from-unknown' } } };
    if (req.path === '/internal/config/override/environment' && req.method === 'GET') return { status: 200, body: { config_string: JSON.stringify({ 'auth.otp.allowSignIn': true }) } };
    if (req.path === '/internal/config/override/environment' && req.method === 'PUT') { saved = JSON.parse(String(req.body)); return { status: 200, body: { success: true } }; }
    return undefined;
  });
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'auth.otp.allowSignIn');
  const row = (path: string) => container.querySelector(`[data-testid="config-row-${path}"]`)?.textContent ?? '';
  assert.match(row('auth.otp.allowSignIn'), /trueenvironment$/);
  assert.match(row('teams.allowClientTeamCreation'), /falsedefault$/);
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
  const { api } = dashboard(`/projects/${PROJECT_ID}/data-vault`, (req) => req.path === '/internal/data-vault/stores'
    ? { status: 200, body: { items: [{ id: 'cards', display_name: 'Cards', entry_count: 3 }] } } : undefined);
  const { container, unmount } = await render(<DashboardRoot api={api} />);
  await waitForText(container, 'Cards');
  const cells = [...container.querySelectorAll('table[aria-label="Stores"] td')].map((td) => td.textContent);
  assert.deepEqual(cells, ['cards', 'Cards', '3']);
  unmount();
});

/**
 * The harness of the dashboard page tests under happy-dom: a fake transport answers the API
 * (the owner and one project by default), so pages are checked without a server. Test-only.
 */
import type { TransportRequest, TransportResponse } from '../../sdk/transport.ts';
import { setUrl } from '../test-dom.tsx';

// uPlot reads window globals when its module loads: import the app after the DOM globals exist.
(globalThis as Record<string, unknown>).devicePixelRatio ??= 1;
Object.defineProperty(globalThis, 'CustomEvent', {
  value: (window as unknown as { CustomEvent: unknown }).CustomEvent,
  configurable: true,
  writable: true,
});
(globalThis as Record<string, unknown>).matchMedia ??= (window as unknown as { matchMedia: unknown }).matchMedia;
const { DashboardApi } = await import('./api.ts');
export const { DashboardRoot } = await import('./app.tsx');

export const PROJECT_ID = '3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
export const ACCESS = `${b64({ alg: 'ES256' })}.${b64({ sub: 'owner', aud: 'internal', exp: Math.floor(Date.now() / 1000) + 3600, iat: Math.floor(Date.now() / 1000) })}.sig`;
export const PROJECT = {
  id: PROJECT_ID,
  display_name: 'Acme',
  description: null,
  created_at_millis: 0,
  is_production_mode: false,
  owner_team_id: null,
  config: { allow_localhost: true, domains: [] },
};

export type Handler = (req: TransportRequest) => { status: number; body: unknown; knownError?: string } | undefined;
export function fakeTransport(handler: Handler) {
  const calls: TransportRequest[] = [];
  const transport = async (req: TransportRequest): Promise<TransportResponse> => {
    calls.push(req);
    const answer =
      handler(req) ??
      (req.path === '/users/me'
        ? { status: 200, body: { id: 'owner', primary_email: 'owner@example.com', display_name: null } }
        : req.path === '/internal/projects'
          ? { status: 200, body: { items: [PROJECT], is_paginated: false } }
          : { status: 404, body: 'not found' });
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const headers = new Headers({
      'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
      ...('knownError' in answer && answer.knownError ? { 'x-stack-known-error': answer.knownError } : {}),
    });
    return { status: answer.status, headers, text };
  };
  return { transport, calls };
}

export function dashboard(path: string, handler: Handler, capabilities?: { passkey: boolean; oauth: boolean; mfa: boolean }) {
  setUrl(path);
  const fake = fakeTransport(handler);
  const api = new DashboardApi(
    { firstRun: false, signUpOpen: false, serverPath: path, ...(capabilities ? { capabilities } : {}) },
    { origin: 'http://localhost:3000', pathname: path },
    { transport: fake.transport, tokenStore: { accessToken: ACCESS, refreshToken: 'refresh' } },
  );
  return { api, calls: fake.calls };
}

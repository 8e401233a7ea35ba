/**
 * Component-test fixtures: a ClientApp over a fake server (project, user, tokens) and `show`,
 * which renders inside <GatehouseProvider> under StrictMode (ui/test-dom.tsx). Test-only.
 */
import { after } from 'node:test';
import type { ReactNode } from 'react';
import { render } from './test-dom.tsx';
import { ClientApp } from '../sdk/client-app.ts';
import { manualEnvironment } from '../sdk/env.ts';
import { GatehouseProvider } from '../sdk/react.tsx';
import { fakeJwt, fakeTransport, type FakeAnswer } from '../sdk/test-support.ts';
import { memoryTokenStore } from '../sdk/tokens.ts';
import type { TransportRequest } from '../sdk/transport.ts';

export const PROJECT = {
  id: 'internal',
  display_name: 'Acme Auth',
  config: {
    sign_up_enabled: true,
    credential_enabled: true,
    magic_link_enabled: true,
    passkey_enabled: false,
    client_team_creation_enabled: true,
    client_user_deletion_enabled: true,
    allow_user_api_keys: true,
    allow_team_api_keys: false,
    enabled_oauth_providers: [{ id: 'github' }],
  },
};
export const USER = {
  id: 'u1',
  display_name: 'Ada',
  primary_email: 'ada@example.com',
  primary_email_verified: true,
  profile_image_url: null,
  signed_up_at_millis: 1000,
  client_metadata: {},
  client_read_only_metadata: {},
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  requires_totp_mfa: false,
  is_anonymous: false,
  selected_team_id: 't1',
  selected_team: { id: 't1', display_name: 'Team One', profile_image_url: null, client_metadata: {}, client_read_only_metadata: {} },
  oauth_providers: [],
};
export const TOKENS = { access_token: fakeJwt({ sub: 'u1' }), refresh_token: 'rt', user_id: 'u1' };

export type Route = (req: TransportRequest) => FakeAnswer | undefined;

/** An app over a fake server: `routes` answer first, then defaults for project and user. */
export function makeApp(routes: Route = () => undefined, signedIn = false) {
  const visited: string[] = [];
  const transport = fakeTransport((req) => {
    const own = routes(req);
    if (own) return own;
    const path = req.path.split('?')[0];
    if (path === '/projects/current') return { json: PROJECT };
    if (path === '/auth/oauth/token') return { json: { access_token: fakeJwt({ sub: 'u1', iat: 2 }), token_type: 'Bearer' } };
    if (path === '/users/me' && req.method === 'GET') return { json: USER };
    if (req.method === 'GET') return { json: { items: [] } };
    return { json: { success: true } };
  });
  const app = new ClientApp({
    projectId: 'internal',
    transport,
    environment: manualEnvironment({ start: Date.now() }),
    tokenStore: memoryTokenStore(signedIn ? { accessToken: TOKENS.access_token, refreshToken: 'rt' } : undefined),
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
export async function show(app: ClientApp, element: ReactNode) {
  const r = await render(<GatehouseProvider app={app}>{element}</GatehouseProvider>);
  mounted.push(r.unmount);
  return r.container;
}

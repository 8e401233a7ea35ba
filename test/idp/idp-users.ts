import assert from 'node:assert/strict';
import { api } from '../helpers/api.ts';
import type { TestServer } from '../helpers/server.ts';
import type { idpProject } from './idp-fixtures.ts';

/** A user of the project signed in through the API, as the hosted sign-in would leave them: its refresh token is the hosted pages' cookie value. */
export async function signedInProjectUser(server: TestServer, p: Awaited<ReturnType<typeof idpProject>>) {
  const user = await api(server, 'POST', '/users', p.server, {
    primary_email: `u${Math.random().toString(36).slice(2)}@example.test`,
    primary_email_verified: true,
    display_name: 'Ada Lovelace',
  });
  assert.equal(user.status, 201, user.text);
  const session = await api(server, 'POST', '/auth/sessions', p.server, {
    user_id: user.body.id,
    expires_in_millis: 3_600_000,
    is_impersonation: false,
  });
  assert.equal(session.status, 200, session.text);
  return {
    id: user.body.id as string,
    email: user.body.primary_email as string,
    refreshToken: session.body.refresh_token as string,
    accessToken: session.body.access_token as string,
  };
}

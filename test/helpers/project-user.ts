import assert from 'node:assert/strict';
import { api, type Caller } from './api.ts';
import type { TestServer } from './server.ts';

/**
 * Test helper: a user of a test project created with the server caller, signed in, with a client
 * caller carrying the user's access token.
 */
export async function projectUser(server: TestServer, p: { server: Caller; client: Caller }, fields: Record<string, unknown> = {}) {
  const user = await api(server, 'POST', '/users', p.server, fields);
  assert.equal(user.status, 201, user.text);
  const session = await api(server, 'POST', '/auth/sessions', p.server, {
    user_id: user.body.id,
    expires_in_millis: 31536000000,
    is_impersonation: false,
  });
  assert.equal(session.status, 200, session.text);
  return {
    id: user.body.id as string,
    accessToken: session.body.access_token as string,
    client: { ...p.client, accessToken: session.body.access_token } as Caller,
  };
}

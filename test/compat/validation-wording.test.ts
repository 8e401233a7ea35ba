import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';

// Upstream's validation texts as its e2e snapshots pin them:
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/analytics-events-batch.test.ts ("rejects invalid event_type")
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/users.test.ts ("should not be able to update totp_secret_base64 to invalid base64")

/** Upstream's SCHEMA_ERROR body for one failed field of `method path`. */
const schemaError = (method: string, path: string, line: string) => {
  const message = `Request validation failed on ${method} /api/v1${path}:\n  - ${line}`;
  return { code: 'SCHEMA_ERROR', details: { message }, error: message };
};

describeWithServer('validation wording as upstream', (get) => {
  it('names the allowed event types without parentheses', async () => {
    const server = get();
    const { client } = await createProject(server);
    const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: `w${randomUUID()}@example.com`,
      password: 'velvet tractor 93',
    });
    assert.equal(signUp.status, 200, signUp.text);
    const res = await api(
      server,
      'POST',
      '/analytics/events/batch',
      { ...client, accessToken: signUp.body.access_token },
      {
        session_replay_segment_id: randomUUID(),
        batch_id: randomUUID(),
        sent_at_ms: Date.now(),
        events: [{ event_type: '$invalid-type', event_at_ms: Date.now(), data: {} }],
      },
    );
    assert.equal(res.status, 400, res.text);
    assert.equal(res.headers.get('x-stack-known-error'), 'SCHEMA_ERROR');
    assert.deepEqual(
      res.body,
      schemaError('POST', '/analytics/events/batch', 'body.events[0].event_type must be one of the following values: $page-view, $click'),
    );
  });

  it('says a TOTP secret that is not base64 "is not valid base64"', async () => {
    const server = get();
    const { client } = await createProject(server);
    const signUp = await api(server, 'POST', '/auth/password/sign-up', client, {
      email: `b${randomUUID()}@example.com`,
      password: 'velvet tractor 93',
    });
    const res = await api(
      server,
      'PATCH',
      '/users/me',
      { ...client, accessToken: signUp.body.access_token },
      { totp_secret_base64: 'not-valid-base64' },
    );
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.body, schemaError('PATCH', '/users/me', 'body.totp_secret_base64 is not valid base64'));
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';

/**
 * What an app on the official `@stackframe/js` SDK meets on its first
 * calls. Shapes follow upstream (stack-auth `https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/analytics/events/batch/route.tsx`,
 * stack-shared `interface/crud/projects.ts`).
 */
describeWithServer('developer first hour', (get) => {
  it('GET /projects/current tells the client whether localhost redirects are allowed', async () => {
    const server = get();
    const on = await createProject(server, { allow_localhost: true });
    const off = await createProject(server, { allow_localhost: false });
    const a = await api(server, 'GET', '/projects/current', on.client);
    const b = await api(server, 'GET', '/projects/current', off.client);
    assert.equal(a.status, 200, a.text);
    assert.equal(a.body.config.allow_localhost, true);
    assert.equal(b.body.config.allow_localhost, false);
  });

  it('POST /analytics/events/batch accepts a valid batch, stores nothing and answers {inserted: 0}', async () => {
    const server = get();
    const p = await createProject(server);
    const body = {
      session_replay_segment_id: randomUUID(),
      batch_id: randomUUID(),
      sent_at_ms: server.clock.now(),
      events: [
        { event_type: '$page-view', event_at_ms: server.clock.now(), data: { path: '/' } },
        { event_type: '$click', event_at_ms: server.clock.now(), data: {} },
      ],
    };
    const res = await api(server, 'POST', '/analytics/events/batch', p.client, body);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { inserted: 0 });
  });

  it('POST /analytics/events/batch refuses an unknown event type, an empty batch and a malformed batch id as SCHEMA_ERROR', async () => {
    const server = get();
    const p = await createProject(server);
    const base = { session_replay_segment_id: randomUUID(), batch_id: randomUUID(), sent_at_ms: 1 };
    const ev = { event_type: '$page-view', event_at_ms: 1, data: {} };
    assertKnownError(
      await api(server, 'POST', '/analytics/events/batch', p.client, { ...base, events: [{ ...ev, event_type: '$scroll' }] }),
      'SCHEMA_ERROR',
      400,
    );
    assertKnownError(await api(server, 'POST', '/analytics/events/batch', p.client, { ...base, events: [] }), 'SCHEMA_ERROR', 400);
    assertKnownError(
      await api(server, 'POST', '/analytics/events/batch', p.client, { ...base, batch_id: 'nope', events: [ev] }),
      'SCHEMA_ERROR',
      400,
    );
  });

  it('"Redirect URL not whitelisted" names the refused URL and keeps upstream\'s body keys', async () => {
    const server = get();
    const p = await createProject(server, { allow_localhost: false, domains: [] });
    const url = 'https://evil.example/handler/email-verification';
    const res = await api(server, 'POST', '/auth/password/sign-up', p.client, {
      email: `x-${randomUUID()}@example.com`,
      password: 'correct horse battery',
      verification_callback_url: url,
    });
    assertKnownError(res, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    assert.ok(res.body.error.includes(url), res.body.error);
    assert.deepEqual(Object.keys(res.body), ['code', 'error']);
  });
});

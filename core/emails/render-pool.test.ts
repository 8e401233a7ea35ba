import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { KnownError, RateLimitError } from '../errors/index.ts';
import { RenderPool, configureRenderPool } from './render-pool.ts';
import type { RenderInput } from './sandbox.ts';

/**
 * Four render-email calls with a looping template blocked the event loop
 * (the sandbox's time limit ran on the main thread), stalling every tenant.
 */

const LOOP = 'export function EmailTemplate() { while (true) {} }';

describeWithServer('email rendering off the main thread (issue 12 finding 6)', (get) => {
  it("answers another tenant's GET /users/me while four looping renders run, before any of them ends", async () => {
    const server = get();
    const attacker = await createProject(server);
    const victim = await createProject(server);
    const user = await api(server, 'POST', '/users', victim.server, { primary_email: 'victim@example.com' });
    const session = await api(server, 'POST', '/auth/sessions', victim.server, { user_id: user.body.id });
    // Load the sandbox first, so the looping renders below start at once.
    const warm = await api(server, 'POST', '/emails/render-email', attacker.admin, {
      template_tsx_source: 'export function EmailTemplate() { return <p>warm</p>; }',
    });
    assert.equal(warm.status, 200, warm.text);
    const order: string[] = [];
    const renders = Array.from({ length: 4 }, (_, i) =>
      api(server, 'POST', '/emails/render-email', attacker.admin, { template_tsx_source: LOOP }).then((res) => {
        order.push(`render ${i}`);
        return res;
      }),
    );
    // Give the renders time to start looping (not a timing assertion: only the order is checked).
    await sleep(300);
    const me = await api(server, 'GET', '/users/me', { ...victim.client, accessToken: session.body.access_token });
    order.push('users/me');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.primary_email, 'victim@example.com');
    const results = await Promise.all(renders);
    assert.equal(order[0], 'users/me', `order: ${order.join(', ')}`);
    for (const res of results) {
      assertKnownError(res, 'EMAIL_RENDERING_ERROR', 400);
      assert.match(res.body.error, /took longer than \d+ ms and was stopped/);
    }
  });
});

/** A stand-in worker: answers `{html: input.html}` after `variables.delay` ms; loops forever on `loop`. */
const FAKE_WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, input }) => {
  if (input.html === 'loop') { for (;;) {} }
  setTimeout(() => parentPort.postMessage({ id, ok: true, result: { html: input.html, subject: null, notificationCategory: null } }), input.props.variables.delay ?? 0);
});
parentPort.postMessage({ ready: true });`;

const job = (html: string, delay = 0): RenderInput => ({
  themeSource: null,
  templateSource: null,
  html,
  props: { user: { displayName: null }, project: { displayName: 'P' }, variables: { delay } },
});

describe('render pool', () => {
  it('terminates a worker that overruns the hard deadline, fails that render, and serves the next on a new worker', async () => {
    const pool = new RenderPool({ size: 1, hardDeadlineMs: 300, source: { code: FAKE_WORKER } });
    try {
      await assert.rejects(
        pool.render(job('loop'), 'a'),
        (error: unknown) =>
          error instanceof KnownError && error.code === 'EMAIL_RENDERING_ERROR' && /longer than 300 ms/.test(String(error.details.error)),
      );
      assert.equal((await pool.render(job('after'), 'a')).html, 'after');
    } finally {
      await pool.close();
    }
  });

  it('serves a waiting tenant before the rest of a tenant that flooded the pool', async () => {
    const pool = new RenderPool({ size: 1, hardDeadlineMs: 5000, source: { code: FAKE_WORKER } });
    try {
      const done: string[] = [];
      const all = [
        ...['a1', 'a2', 'a3'].map((name) => pool.render(job(name, 50), 'flooder').then((r) => done.push(r.html))),
        pool.render(job('b1', 50), 'other').then((r) => done.push(r.html)),
      ];
      await Promise.all(all);
      assert.deepEqual(done, ['a1', 'b1', 'a2', 'a3']);
    } finally {
      await pool.close();
    }
  });

  it('refuses a render at once with a retryable 429 past the queue limits (issue 19 admission), per tenant and in total', async () => {
    const pool = new RenderPool({ size: 1, hardDeadlineMs: 5000, source: { code: FAKE_WORKER }, maxQueued: 3, maxQueuedPerTenant: 2 });
    const refused = (error: unknown) =>
      error instanceof RateLimitError && error.kind === 'too-many-requests' && (error.retryAfterSeconds ?? 0) >= 1;
    try {
      const running = pool.render(job('a0', 300), 'a');
      // Wait for the worker to take a0 (a loaded machine may need seconds to start it), not a fixed time.
      for (const start = Date.now(); pool.stats().running < 1; await sleep(10)) {
        assert.ok(Date.now() - start < 30_000, 'the worker takes the first render');
      }
      const queued = [pool.render(job('a1', 10), 'a'), pool.render(job('a2', 10), 'a')];
      await assert.rejects(pool.render(job('a3'), 'a'), refused, "a tenant's third waiting render");
      queued.push(pool.render(job('b1', 10), 'b'));
      await assert.rejects(pool.render(job('c1'), 'c'), refused, 'a fourth waiting render of any tenant');
      assert.deepEqual(pool.stats(), { queued: 3, running: 1, refused: 2 });
      assert.deepEqual(
        (await Promise.all([running, ...queued])).map((r) => r.html),
        ['a0', 'a1', 'a2', 'b1'],
      );
      assert.equal((await pool.render(job('after'), 'c')).html, 'after', 'renders are admitted again once the queue drains');
    } finally {
      await pool.close();
    }
  });
});

describeWithServer('email render admission over HTTP (issue 19 item 2)', (get) => {
  it('answers render-email with 429 and Retry-After while the render queue is full, and renders again after', async () => {
    const server = get();
    const project = await createProject(server);
    configureRenderPool({ size: 1, maxQueued: 1, maxQueuedPerTenant: 1 });
    try {
      const looping = [0, 1].map(() => api(server, 'POST', '/emails/render-email', project.admin, { template_tsx_source: LOOP }));
      await sleep(300);
      const busy = await api(server, 'POST', '/emails/render-email', project.admin, {
        template_tsx_source: 'export function EmailTemplate() { return <p>hi</p>; }',
      });
      assert.equal(busy.status, 429, busy.text);
      assert.ok(Number(busy.headers.get('retry-after')) >= 1, `Retry-After: ${busy.headers.get('retry-after')}`);
      for (const res of await Promise.all(looping)) assertKnownError(res, 'EMAIL_RENDERING_ERROR', 400);
      const ok = await api(server, 'POST', '/emails/render-email', project.admin, {
        template_tsx_source: 'export function EmailTemplate() { return <p>hi</p>; }',
      });
      assert.equal(ok.status, 200, ok.text);
    } finally {
      configureRenderPool({ size: 2, maxQueued: undefined, maxQueuedPerTenant: undefined });
    }
  });
});

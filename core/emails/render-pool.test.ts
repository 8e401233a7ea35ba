import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCoreProject, createCoreUser, describeWithCore } from '../../test/helpers/core-client.ts';
import { testDialects } from '../../test/helpers/dialects.ts';
import { waitUntil } from '../../test/helpers/settle.ts';
import { KnownError, RateLimitError } from '../errors/index.ts';
import { RenderPool, configureRenderPool, renderPool } from './render-pool.ts';
import type { RenderInput } from './sandbox.ts';

/**
 * Four render-email calls with a looping template blocked the event loop
 * (the sandbox's time limit ran on the main thread), stalling every tenant. In-process: a render
 * on the main thread would block `users.getCurrent` here as it blocked a request.
 */

const LOOP = 'export function EmailTemplate() { while (true) {} }';
/**
 * The pool and its renders never touch the database, and each looping render costs its full
 * second of CPU: on the first configured dialect only.
 */
const POOL_DIALECTS = testDialects().slice(0, 1);

/**
 * Waits until the process-wide pool holds `total` renders, at least `running` of them on a worker
 * and the rest queued (no fixed sleep). A loaded machine may take seconds to start a worker.
 */
async function poolHolds(total: number, running: number): Promise<void> {
  await waitUntil(
    () => {
      const stats = renderPool().stats();
      return stats.running >= running && stats.running + stats.queued === total;
    },
    { timeoutMs: 120_000, what: `${total} renders in the pool, ${running} running`, describe: () => JSON.stringify(renderPool().stats()) },
  );
}

describeWithCore(
  'email rendering off the main thread',
  (get) => {
    it("answers another tenant's users.getCurrent while four looping renders run, before any of them ends", async () => {
      const t = get();
      configureRenderPool({ size: 2 });
      try {
        const attacker = await createCoreProject(t);
        const victim = await createCoreProject(t);
        const user = await createCoreUser(t, victim, { primary_email: 'victim@example.com' });
        // Load the sandbox first, so the looping renders below start at once.
        await t.call('emails.renderEmail', attacker.admin, {
          body: { template_tsx_source: 'export function EmailTemplate() { return <p>warm</p>; }' },
        });
        const order: string[] = [];
        const renders = Array.from({ length: 4 }, (_, i) =>
          t.core.invoke('emails.renderEmail', attacker.admin, { body: { template_tsx_source: LOOP } }).then(
            () => assert.fail(`render ${i} answered`),
            (error: unknown) => {
              order.push(`render ${i}`);
              return error;
            },
          ),
        );
        // A worker loops and the rest wait in the pool: the condition, not a fixed time.
        await poolHolds(4, 1);
        const me = await t.call<{ primary_email: string }>('users.getCurrent', user.client);
        order.push('users/me');
        assert.equal(me.primary_email, 'victim@example.com');
        const results = await Promise.all(renders);
        assert.equal(order[0], 'users/me', `order: ${order.join(', ')}`);
        for (const error of results) {
          assert.ok(error instanceof KnownError && error.code === 'EMAIL_RENDERING_ERROR', String(error));
          assert.match(String(error.details.error), /took longer than \d+ ms and was stopped/);
        }
      } finally {
        configureRenderPool({ size: undefined });
      }
    });
  },
  {},
  POOL_DIALECTS,
);

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
      await waitUntil(() => pool.stats().running >= 1, { timeoutMs: 30_000, what: 'the worker takes the first render' });
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

describeWithCore(
  'email render admission',
  (get) => {
    it('refuses render-email with a retryable 429 while the render queue is full, and renders again after', async () => {
      const t = get();
      const project = await createCoreProject(t);
      configureRenderPool({ size: 1, maxQueued: 1, maxQueuedPerTenant: 1 });
      try {
        const looping = [0, 1].map(() =>
          t.core.invoke('emails.renderEmail', project.admin, { body: { template_tsx_source: LOOP } }).then(
            () => assert.fail('a looping render answered'),
            (error: unknown) => error,
          ),
        );
        await poolHolds(2, 1);
        const hi = { body: { template_tsx_source: 'export function EmailTemplate() { return <p>hi</p>; }' } };
        // The wire rendering of a RateLimitError (429, Retry-After) is server-bin/api/render.test.ts's.
        await assert.rejects(
          t.core.invoke('emails.renderEmail', project.admin, hi),
          (error: unknown) => error instanceof RateLimitError && error.kind === 'too-many-requests' && (error.retryAfterSeconds ?? 0) >= 1,
        );
        for (const error of await Promise.all(looping)) {
          assert.ok(error instanceof KnownError && error.code === 'EMAIL_RENDERING_ERROR', String(error));
        }
        await t.call('emails.renderEmail', project.admin, hi);
      } finally {
        configureRenderPool({ size: undefined, maxQueued: undefined, maxQueuedPerTenant: undefined });
      }
    });
  },
  {},
  POOL_DIALECTS,
);

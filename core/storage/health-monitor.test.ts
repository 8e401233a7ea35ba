import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createHealthMonitor, isDatabaseDown, type HealthProbe } from './health-monitor.ts';

/**
 * A probe scripted per attempt: `answer(n)` says what attempt n (from 1) does: 'ok', 'fail' (a
 * reset connection), or 'hang' (a stalled network: settles only when abandoned).
 */
function scriptedProbe(answer: (n: number) => 'ok' | 'fail' | 'hang') {
  let attempts = 0;
  let abandoned = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let hanging: ((error: Error) => void) | undefined;
  const probe: HealthProbe = {
    attempt() {
      attempts++;
      for (const w of waiters.filter((x) => attempts >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const what = answer(attempts);
      if (what === 'ok') return Promise.resolve();
      if (what === 'fail') return Promise.reject(new Error('Connection terminated unexpectedly'));
      return new Promise((_, reject) => {
        hanging = reject;
      });
    },
    abandon() {
      abandoned++;
      hanging?.(new Error('abandoned'));
      hanging = undefined;
    },
    close() {},
  };
  return {
    probe,
    get abandoned() {
      return abandoned;
    },
    get attempts() {
      return attempts;
    },
    /** Resolves once attempt `n` has started. */
    attempt: (n: number) =>
      new Promise<void>((resolve) => {
        if (attempts >= n) resolve();
        else waiters.push({ n, resolve });
      }),
  };
}

const FAST = { intervalMs: 10, deadlineMs: 100 };

describe('database health monitor', () => {
  // The monitor's timers never keep a process alive (unref); the test's own waits must.
  let keepAlive: NodeJS.Timeout;
  beforeEach(() => {
    keepAlive = setInterval(() => {}, 1000);
  });
  afterEach(() => clearInterval(keepAlive));

  it('marks the database down when a probe gets no answer within the deadline, and releases waiters with the down error', async () => {
    let stalled = false;
    const script = scriptedProbe(() => (stalled ? 'hang' : 'ok'));
    const monitor = createHealthMonitor(script.probe, FAST);
    try {
      await script.attempt(2);
      assert.equal(monitor.up, true);
      const waiting = monitor.race(new Promise<string>(() => {}));
      stalled = true;
      const started = performance.now();
      const error = await waiting.then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(isDatabaseDown(error), String(error));
      assert.match((error as Error).message, /no answer within 100 ms/);
      assert.ok(performance.now() - started < 2000);
      assert.equal(monitor.up, false);
      assert.throws(
        () => monitor.assertUp(),
        (e: unknown) => isDatabaseDown(e),
      );
      assert.ok(script.abandoned >= 1, 'the stalled probe connection was dropped');
      await assert.rejects(monitor.race(Promise.resolve('late')), (e: unknown) => isDatabaseDown(e));
    } finally {
      monitor.stop();
    }
  });

  it('marks it up again with the first answered probe, and hands a value that lost the race to dispose', async () => {
    let stalled = true;
    const script = scriptedProbe(() => (stalled ? 'hang' : 'ok'));
    const monitor = createHealthMonitor(script.probe, FAST);
    try {
      let resolveLate!: (v: string) => void;
      const disposed: string[] = [];
      const raced = monitor.race(
        new Promise<string>((resolve) => {
          resolveLate = resolve;
        }),
        (v) => disposed.push(v),
      );
      await assert.rejects(raced, (e: unknown) => isDatabaseDown(e));
      resolveLate('client');
      await Promise.resolve();
      assert.deepEqual(disposed, ['client']);
      const n = script.attempts;
      stalled = false;
      // Attempt n + 1 answers; attempt n + 2 starts only after the monitor took that answer in.
      await script.attempt(n + 2);
      assert.equal(monitor.up, true);
      assert.equal(await monitor.race(Promise.resolve('fresh')), 'fresh');
    } finally {
      monitor.stop();
    }
  });

  it('does not mark it down for a failed attempt that a retry answers within the deadline (a reset connection)', async () => {
    const script = scriptedProbe((n) => (n % 2 === 0 ? 'fail' : 'ok'));
    const monitor = createHealthMonitor(script.probe, FAST);
    const downs: Error[] = [];
    monitor.onDown((e) => downs.push(e));
    try {
      await script.attempt(9);
      assert.deepEqual(downs, []);
      assert.equal(monitor.up, true);
    } finally {
      monitor.stop();
    }
  });
});

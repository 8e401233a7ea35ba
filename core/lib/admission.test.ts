import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdmissionQueue, cpuBudget } from './admission.ts';
import { RateLimitError } from '../errors/index.ts';

/** A job that finishes when its `release` is called, recording when it started. */
function gate(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

describe('admission queue (issue 19)', () => {
  it('runs at most `concurrency` jobs, queues up to `maxQueued` in order, and refuses one more with a retryable 429', async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxQueued: 2, label: 'testing' });
    const started: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => gate(started, name));
    const results = jobs.map((job) => queue.run(job.work));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ['a']);
    assert.deepEqual(queue.stats(), { running: 1, queued: 2, refused: 0, completed: 0 });
    await assert.rejects(
      queue.run(async () => 'd'),
      (error: unknown) => {
        assert.ok(error instanceof RateLimitError);
        assert.equal(error.kind, 'too-many-requests');
        assert.ok(error.retryAfterSeconds !== null && error.retryAfterSeconds >= 1);
        assert.match(error.message, /busy with testing/);
        return true;
      },
    );
    assert.equal(queue.stats().refused, 1);
    jobs[0]!.release();
    assert.equal(await results[0], 'a');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ['a', 'b']);
    // Room again: a new job waits instead of being refused.
    const e = gate(started, 'e');
    const late = queue.run(e.work);
    jobs[1]!.release();
    jobs[2]!.release();
    e.release();
    assert.deepEqual(await Promise.all([results[1], results[2], late]), ['b', 'c', 'e']);
    assert.deepEqual(started, ['a', 'b', 'c', 'e']);
    assert.deepEqual(queue.stats(), { running: 0, queued: 0, refused: 1, completed: 4 });
  });

  it('frees the slot of a job that throws', async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxQueued: 0, label: 'testing' });
    await assert.rejects(
      queue.run(async () => {
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await queue.run(async () => 'next'), 'next');
  });

  it('counts a reservation as a place until it runs or is released', async () => {
    const queue = new AdmissionQueue({ concurrency: 1, maxQueued: 0, label: 'testing' });
    const held = queue.reserve();
    assert.throws(() => queue.reserve(), RateLimitError);
    await assert.rejects(
      queue.run(async () => 'other'),
      RateLimitError,
    );
    assert.equal(await queue.run(async () => 'mine', held), 'mine');
    held.release();
    const again = queue.reserve();
    again.release();
    again.release();
    assert.equal(await queue.run(async () => 'free'), 'free');
  });

  it('leaves the request path a core: cores − 1 shared among processes, at least 1 each', () => {
    assert.equal(cpuBudget(1, 1), 1);
    assert.equal(cpuBudget(1, 2), 1);
    assert.equal(cpuBudget(2, 2), 1);
    assert.equal(cpuBudget(1, 8), 7);
    assert.equal(cpuBudget(2, 8), 3);
  });
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits for conditions instead of sleeping (HELPERS: timing tests flake under load). Bounds are
 * wall-clock limits, generous enough for a loaded 2-core machine: they only decide how long to
 * wait before failing, never what passes.
 */

/**
 * Resolves as soon as `condition()` holds, checking every `intervalMs`; after `timeoutMs` it
 * checks once more and fails naming `what` (and `describe()`'s view of the state, if given).
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; what: string; intervalMs?: number; describe?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(options.intervalMs ?? 20);
  }
  if (await condition()) return;
  assert.fail(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${options.describe ? `: ${options.describe()}` : ''}`);
}

/**
 * "Exactly `expected`": waits until `count()` reaches `expected` (at most `timeoutMs`), fails at
 * once if it is already past it, then keeps watching for `quietMs` and fails as soon as anything
 * more arrives (a late duplicate). Use `quietMs` of a few poll intervals of the sender.
 */
export async function assertExactlyArrives(
  count: () => number | Promise<number>,
  expected: number,
  options: { timeoutMs: number; quietMs: number; what: string; intervalMs?: number },
): Promise<void> {
  await waitUntil(async () => (await count()) >= expected, {
    timeoutMs: options.timeoutMs,
    what: `${expected} ${options.what}`,
    intervalMs: options.intervalMs,
    describe: () => 'fewer arrived',
  });
  assert.equal(await count(), expected, `${options.what}: more than ${expected} arrived`);
  const quietUntil = Date.now() + options.quietMs;
  while (Date.now() < quietUntil) {
    await sleep(options.intervalMs ?? 20);
    const now = await count();
    assert.equal(
      now,
      expected,
      `${options.what}: ${now - expected} more arrived within ${options.quietMs} ms after the ${expected} expected`,
    );
  }
}

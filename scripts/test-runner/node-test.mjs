// `node:test` as the test files see it inside a shared test process (scripts/test-runner/worker.mjs):
// the test loader resolves their `node:test` imports here (scripts/test-loader/hooks.mjs). While a
// file is being imported, what it declares at its top level (describe, it, test, before, after,
// beforeEach, afterEach and their skip/todo/only forms) is held back; the worker then replays it
// inside one suite named after the file, so each file's top-level hooks stay scoped to that file's
// tests, as when the file had a process of its own. Everything else is node:test's own.
import * as real from 'node:test';

export * from 'node:test';

/** @type {Array<() => unknown> | null} */
let pending = null;

/** Starts holding back top-level declarations (the worker, before importing a test file). */
export function holdDeclarations() {
  pending = [];
}

/** Stops holding back and returns the held declarations, to be called inside the file's suite. */
export function takeDeclarations() {
  const held = pending ?? [];
  pending = null;
  return held;
}

/**
 * @template {(...args: any[]) => any} F
 * @param {F} declare
 * @param {unknown} heldResult what the call answers while held back (tests answer a promise)
 * @returns {F}
 */
function holdable(declare, heldResult) {
  const wrapped = function (...args) {
    if (pending === null) return declare.apply(this, args);
    pending.push(() => declare.apply(this, args));
    return typeof heldResult === 'function' ? heldResult() : heldResult;
  };
  for (const variant of ['skip', 'todo', 'only']) {
    if (typeof declare[variant] === 'function') wrapped[variant] = holdable(declare[variant], heldResult);
  }
  return /** @type {F} */ (wrapped);
}

const resolved = () => Promise.resolve();

export const test = holdable(real.test, resolved);
export const it = holdable(real.it, resolved);
export const describe = holdable(real.describe, resolved);
export const suite = holdable(real.suite ?? real.describe, resolved);
export const before = holdable(real.before, undefined);
export const after = holdable(real.after, undefined);
export const beforeEach = holdable(real.beforeEach, undefined);
export const afterEach = holdable(real.afterEach, undefined);

// The default export is a `test` carrying the others as properties, as node:test's is.
const defaultTest = holdable(real.test, resolved);
Object.assign(defaultTest, { test, it, describe, suite, before, after, beforeEach, afterEach, mock: real.mock, run: real.run });
export default defaultTest;

import { parentPort } from 'node:worker_threads';
import { createCelEnvironment, useLinearMatches } from '../lib/cel-environment.ts';

/**
 * Entry of a sign-up condition worker (cel-pool.ts): answers `{id, input: {condition,
 * variables}}` with `{id, ok: true, value: <matched>}` or `{id, ok: false, error}`. Parsed with
 * cel-js's default limits (not the save-time bound: rules saved before it still run, under the
 * pool's deadline); `matches` runs on RE2.
 */
const port = parentPort;
if (!port) throw new Error('cel-worker.ts runs as a worker thread');
const env = createCelEnvironment();
const compiled = new Map<string, ReturnType<typeof env.parse>>();

function compile(condition: string): ReturnType<typeof env.parse> {
  let fn = compiled.get(condition);
  if (!fn) {
    fn = env.parse(condition);
    useLinearMatches(fn.ast);
    if (compiled.size >= 500) compiled.delete(compiled.keys().next().value!);
    compiled.set(condition, fn);
  }
  return fn;
}

port.on('message', (message: { id: number; input: { condition: string; variables: Record<string, unknown> } }) => {
  try {
    const value = compile(message.input.condition)(message.input.variables) === true;
    port.postMessage({ id: message.id, ok: true, value });
  } catch (error) {
    port.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
  }
});
port.postMessage({ ready: true });

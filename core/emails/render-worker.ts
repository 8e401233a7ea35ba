import { parentPort } from 'node:worker_threads';
import { KnownError } from '../errors/index.ts';
import { renderInThisThread, warmUpSandbox } from './sandbox-render.ts';
import type { RenderInput } from './render-types.ts';

/**
 * Entry of an email render worker (render-pool.ts): loads the sandbox, says `ready`, then
 * renders one `{id, input}` at a time and answers `{id, ok, result | error}`. Errors cross the
 * thread boundary as data: a known error as `{code, details}`, anything else as a message.
 */
const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread');
port.on('message', (message: { id: number; input: RenderInput }) => {
  renderInThisThread(message.input).then(
    (result) => port.postMessage({ id: message.id, ok: true, result }),
    (error: unknown) =>
      port.postMessage({
        id: message.id,
        ok: false,
        error:
          error instanceof KnownError
            ? { code: error.code, details: error.details }
            : { message: error instanceof Error ? error.message : String(error) },
      }),
  );
});
warmUpSandbox().then(
  () => port.postMessage({ ready: true }),
  (error: unknown) => port.postMessage({ ready: false, message: String(error) }),
);

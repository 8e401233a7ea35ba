import { renderPool } from './render-pool.ts';
import type { RenderInput, RenderedEmail } from './render-types.ts';

export type { RenderInput, RenderedEmail } from './render-types.ts';

/**
 * Compiles and renders email TSX in the QuickJS sandbox (sandbox-render.ts) on a worker thread
 * of the render pool (render-pool.ts), never on the main thread: a template that loops or
 * allocates cannot delay any other request. `tenant` (the project id)
 * keeps one project's renders from queueing ahead of another's.
 *
 * @throws KnownError EMAIL_RENDERING_ERROR `{error}` with the compiler's or the guest's message,
 *   for syntax errors, forbidden modules, thrown errors, timeouts (the guest's 1 s limit, or the
 *   pool's hard deadline, which terminates the worker) and memory exhaustion.
 */
export function renderInSandbox(input: RenderInput, tenant?: string): Promise<RenderedEmail> {
  return renderPool().render(input, tenant ?? '');
}

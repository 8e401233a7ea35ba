import { renderPool } from './render-pool.ts';

// The limits live beside the pool that enforces them from outside (no import cycle with it).
export { RENDER_TIME_LIMIT_MS, RENDER_MEMORY_LIMIT_BYTES } from './render-limits.ts';

/** What a template sees as props: `{user, project, variables}`; the theme gets `unsubscribeLink`. */
export interface RenderInput {
  /** TSX of a theme exporting `EmailTheme({children, unsubscribeLink})`, or null for no theme. */
  themeSource: string | null;
  /** TSX exporting `EmailTemplate(props)`; or null with `html` given. */
  templateSource: string | null;
  /** Raw HTML body used instead of a template. */
  html?: string | null;
  props: { user: { displayName: string | null }; project: { displayName: string }; variables: Record<string, unknown> };
  unsubscribeLink?: string | null;
}

/** A rendered email: HTML plus what the template declared with `<Subject>` and `<NotificationCategory>`. */
export interface RenderedEmail {
  html: string;
  subject: string | null;
  notificationCategory: string | null;
}

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

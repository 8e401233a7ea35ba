/*
 * What an email render takes and gives: shared by the sandbox API (sandbox.ts), the render pool
 * (render-pool.ts) and its worker, on its own so the pool need not import the sandbox that uses it.
 */

/** What a template sees as props: `{user, project, variables}`; the theme gets `unsubscribeLink`. */
export interface RenderInput {
  /** TSX of a theme exporting `EmailTheme({children, unsubscribeLink})`, or null for no theme (the bare document). */
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

/**
 * The built-in emails every flow sends (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email): verification, magic link / OTP, password
 * reset, team invitation, sign-in invitation. Each kind names its variables; the default
 * templates (templates.ts) render them, and project templates may override the body.
 */
export type BuiltInEmailKind = 'email_verification' | 'magic_link' | 'password_reset' | 'team_invitation' | 'sign_in_invitation';

export const BUILT_IN_EMAIL_KINDS: readonly BuiltInEmailKind[] = [
  'email_verification',
  'magic_link',
  'password_reset',
  'team_invitation',
  'sign_in_invitation',
];

/** `callbackUrl` with `code` set as a query parameter (the link a user clicks). */
export function linkWithCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('code', code);
  return url.toString();
}

/** HTML-escapes text for the plain (non-template) fallback bodies. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

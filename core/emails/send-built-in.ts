import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { builtInSubject, escapeHtml, type BuiltInEmailKind } from './built-in.ts';
import { enqueueEmail } from './outbox.ts';
import { renderInSandbox } from './sandbox.ts';
import { builtInTemplate, resolveTheme } from './sources.ts';
import { LINK_VARIABLE } from './defaults.ts';

const BODIES: Record<BuiltInEmailKind, (v: Record<string, string>) => { heading: string; lines: string[]; button?: string }> = {
  email_verification: (v) => ({ heading: 'Verify your email', lines: [`Hi${v.userDisplayName ? ` ${v.userDisplayName}` : ''}! Please verify your email address for ${v.projectDisplayName}.`], button: 'Verify my email' }),
  // The code stands alone on its own line / paragraph, as in upstream's magic-link template.
  magic_link: (v) => ({ heading: `Sign in to ${v.projectDisplayName}`, lines: [`Hi${v.userDisplayName ? ` ${v.userDisplayName}` : ''}! Your one-time code for signing in:`, v.otp ?? '', 'Or click the button below to sign in. If you did not request this, ignore this email.'], button: 'Sign in' }),
  password_reset: (v) => ({ heading: 'Reset your password', lines: [`Somebody asked to reset the password of your account at ${v.projectDisplayName}. If it was not you, ignore this email.`], button: 'Reset my password' }),
  team_invitation: (v) => ({ heading: `Join ${v.teamDisplayName}`, lines: [`You have been invited to join the team ${v.teamDisplayName} on ${v.projectDisplayName}.`], button: 'Join team' }),
  sign_in_invitation: (v) => ({ heading: `Sign in to ${v.projectDisplayName}`, lines: [`You have been invited to sign in to ${v.projectDisplayName}.`], button: 'Sign in' }),
};

/**
 * Renders a built-in email with the project's template for `kind` (its override or the default)
 * and theme, in the sandbox, and queues it in the outbox inside the caller's transaction. `vars`
 * become the template's `variables` (`link` is also given under the template's link name, e.g.
 * `magicLink`). If the project's template fails to render, the plain built-in layout is sent
 * instead, so a broken template never blocks sign-in or verification. `secrets` (the code, the
 * OTP) are redacted from the stored copy and sealed until delivery (see `enqueueEmail`).
 *
 * @returns the outbox row id.
 */
export async function sendBuiltInEmail(
  ctx: OperationContext,
  project: Project,
  input: { kind: BuiltInEmailKind; to: string; userId?: string | null; vars: Record<string, string>; secrets?: readonly string[] },
): Promise<string> {
  const vars: Record<string, string> = { projectDisplayName: project.displayName, ...input.vars };
  let email: { subject: string; html: string; text: string | null };
  try {
    const template = await builtInTemplate(ctx.db, project.id, input.kind);
    const theme = await resolveTheme(ctx.db, project, template.themeId);
    const variables: Record<string, unknown> = { ...vars, ...(vars.link ? { [LINK_VARIABLE[input.kind]]: vars.link } : {}) };
    const rendered = await renderInSandbox({
      themeSource: theme?.tsxSource ?? null, templateSource: template.tsxSource,
      props: { user: { displayName: vars.userDisplayName || null }, project: { displayName: project.displayName }, variables },
    }, project.id);
    email = { subject: rendered.subject ?? builtInSubject(input.kind, vars), html: rendered.html, text: renderBuiltInEmail(input.kind, vars).text };
  } catch (error) {
    ctx.runtime.log.warn({ project_id: project.id, kind: input.kind, err: error instanceof Error ? error.message : String(error) }, 'email template failed; sending the plain built-in email');
    email = renderBuiltInEmail(input.kind, vars);
  }
  return enqueueEmail(ctx, project, { to: input.to, subject: email.subject, html: email.html, text: email.text, userId: input.userId ?? null, notificationCategory: 'Transactional', secrets: input.secrets ?? [] });
}

/** Subject, HTML and text of a built-in email; `vars.link` (when set) becomes the button. */
export function renderBuiltInEmail(kind: BuiltInEmailKind, vars: Record<string, string>): { subject: string; html: string; text: string } {
  const subject = builtInSubject(kind, vars);
  const body = BODIES[kind](vars);
  const link = vars.link;
  const html = `<!DOCTYPE html><html><body style="font-family:sans-serif;background:#f6f6f6;padding:24px">`
    + `<div style="max-width:560px;margin:0 auto;background:#fff;padding:24px;border-radius:8px">`
    + `<h1 style="font-size:20px">${escapeHtml(body.heading)}</h1>`
    + body.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')
    + (link && body.button ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(body.button)}</a></p><p style="font-size:12px;color:#666">${escapeHtml(link)}</p>` : '')
    + `</div></body></html>`;
  const text = [body.heading, '', ...body.lines, ...(link ? ['', link] : [])].join('\n');
  return { subject, html, text };
}

import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { builtInSubject, escapeHtml, type BuiltInEmailKind } from './built-in.ts';
import { enqueueEmail } from './outbox.ts';

const BODIES: Record<BuiltInEmailKind, (v: Record<string, string>) => { heading: string; lines: string[]; button?: string }> = {
  email_verification: (v) => ({ heading: 'Verify your email', lines: [`Hi${v.userDisplayName ? ` ${v.userDisplayName}` : ''}! Please verify your email address for ${v.projectDisplayName}.`], button: 'Verify my email' }),
  magic_link: (v) => ({ heading: `Sign in to ${v.projectDisplayName}`, lines: [`Your one-time code is: ${v.otp}`, 'Or click the button below to sign in. If you did not request this, ignore this email.'], button: 'Sign in' }),
  password_reset: (v) => ({ heading: 'Reset your password', lines: [`Somebody asked to reset the password of your account at ${v.projectDisplayName}. If it was not you, ignore this email.`], button: 'Reset my password' }),
  team_invitation: (v) => ({ heading: `Join ${v.teamDisplayName}`, lines: [`You have been invited to join the team ${v.teamDisplayName} on ${v.projectDisplayName}.`], button: 'Join team' }),
  sign_in_invitation: (v) => ({ heading: `Sign in to ${v.projectDisplayName}`, lines: [`You have been invited to sign in to ${v.projectDisplayName}.`], button: 'Sign in' }),
};

/**
 * Renders a built-in email (subject from `builtInSubject`, body from the default layout) with the
 * variables `vars` (`projectDisplayName` is filled in) and queues it in the outbox, inside the
 * caller's transaction.
 *
 * @returns the outbox row id.
 */
export async function sendBuiltInEmail(
  ctx: OperationContext,
  project: Project,
  input: { kind: BuiltInEmailKind; to: string; userId?: string | null; vars: Record<string, string> },
): Promise<string> {
  const vars = { projectDisplayName: project.displayName, ...input.vars };
  const { subject, html, text } = renderBuiltInEmail(input.kind, vars);
  return enqueueEmail(ctx, project, { to: input.to, subject, html, text, userId: input.userId ?? null, notificationCategory: 'Transactional' });
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

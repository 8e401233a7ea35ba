import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { escapeHtml, type BuiltInEmailKind } from './built-in.ts';
import { builtInWords, emailLocaleOf, localizedTemplateSource, type EmailLocale } from './locales.ts';
import { loadConfigLayers, renderLayers } from '../config/index.ts';
import { findUser } from '../users/index.ts';
import { enqueueEmail, releaseHeldEmail } from './outbox.ts';
import { renderInSandbox } from './sandbox.ts';
import { builtInTemplate, resolveTheme } from './sources.ts';
import { LINK_VARIABLE } from './defaults.ts';

/**
 * How long a built-in email waits in the outbox for its template rendering (ms). Rendering happens
 * after the caller's transaction commits (a tenant's slow template must not hold a
 * database transaction); if the process stops before it finishes, the plain built-in version
 * queued with the transaction goes out when this ends.
 */
export const TEMPLATE_RENDER_HOLD_MS = 15_000;

/**
 * Queues a built-in email (verification, magic link / OTP, password reset, invitations) in the
 * caller's transaction, and renders it with the project's template for `kind` (its override or the
 * default) and theme once that transaction has committed, in the rendering pool (worker threads,
 * hard deadline), never inside the transaction. The row queued with the transaction carries the
 * plain built-in layout and is held for `TEMPLATE_RENDER_HOLD_MS`; the rendering replaces its
 * content and releases it. A template that fails to render leaves the plain layout, so a broken
 * template never blocks sign-in or verification, and the email commits with the change that caused
 * it or not at all (durable outbox). `vars` become the template's `variables` (`link` is also given
 * under the template's link name, e.g. `magicLink`). `secrets` (the code, the OTP) are redacted
 * from the stored copy and sealed until delivery (see `enqueueEmail`).
 *
 * @returns the outbox row id.
 */
export async function sendBuiltInEmail(
  ctx: OperationContext,
  project: Project,
  input: { kind: BuiltInEmailKind; to: string; userId?: string | null; vars: Record<string, string>; secrets?: readonly string[] },
): Promise<string> {
  const vars: Record<string, string> = { projectDisplayName: project.displayName, ...input.vars };
  const secrets = input.secrets ?? [];
  const locale = await recipientLocale(ctx, project, input.userId ?? null);
  const plain = renderBuiltInEmail(input.kind, vars, locale);
  const id = await enqueueEmail(ctx, project, {
    to: input.to,
    subject: plain.subject,
    html: plain.html,
    text: plain.text,
    userId: input.userId ?? null,
    notificationCategory: 'Transactional',
    secrets,
    holdMs: TEMPLATE_RENDER_HOLD_MS,
  });
  const runtime = ctx.runtime;
  ctx.afterCommit(async () => {
    let email: { subject: string; html: string; text: string | null } | null = null;
    try {
      const template = await builtInTemplate(runtime.db, project.id, input.kind);
      const theme = await resolveTheme(runtime.db, project, template.themeId);
      const variables: Record<string, unknown> = { ...vars, locale, ...(vars.link ? { [LINK_VARIABLE[input.kind]]: vars.link } : {}) };
      // The default template speaks the recipient's language; a project's own template gets the
      // language as `variables.locale` and decides itself.
      const templateSource =
        template.isDefault && locale !== 'en'
          ? localizedTemplateSource(builtInWords(input.kind, locale, vars), LINK_VARIABLE[input.kind])
          : template.tsxSource;
      const rendered = await renderInSandbox(
        {
          themeSource: theme?.tsxSource ?? null,
          templateSource,
          props: { user: { displayName: vars.userDisplayName || null }, project: { displayName: project.displayName }, variables },
        },
        project.id,
      );
      email = { subject: rendered.subject ?? plain.subject, html: rendered.html, text: plain.text };
    } catch (error) {
      runtime.log.warn(
        { project_id: project.id, kind: input.kind, err: error instanceof Error ? error.message : String(error) },
        'email template failed; sending the plain built-in email',
      );
    }
    await releaseHeldEmail(runtime, project.id, id, email, secrets);
  });
  return id;
}

/**
 * The language of a built-in email to `userId`: the user's stored locale (chosen on the hosted
 * pages at sign-up or in account settings), else, for a recipient who is not a user yet (a
 * sign-in code to a new address), the language of the client asking for it, else the project's
 * `emails.defaultLocale` (Gatehouse config key, default `en`). Languages without built-in emails
 * fall through to the next choice.
 */
async function recipientLocale(ctx: OperationContext, project: Project, userId: string | null): Promise<EmailLocale> {
  const user = userId ? await findUser(ctx.db, project.id, userId) : null;
  const chosen = user ? emailLocaleOf(user.locale) : ctx.auth?.accessType === 'client' ? emailLocaleOf(ctx.clientLocale) : null;
  if (chosen) return chosen;
  const emails = renderLayers(await loadConfigLayers(ctx.db, project.id, ctx.auth?.branchId ?? 'main', ctx.now)).emails;
  return emailLocaleOf(typeof emails?.defaultLocale === 'string' ? emails.defaultLocale : null) ?? 'en';
}

/** Subject, HTML and text of a built-in email in `locale`; `vars.link` (when set) becomes the button. */
export function renderBuiltInEmail(
  kind: BuiltInEmailKind,
  vars: Record<string, string>,
  locale: EmailLocale = 'en',
): { subject: string; html: string; text: string } {
  const words = builtInWords(kind, locale, vars);
  const subject = words.subject;
  const body = { heading: words.heading, lines: words.lines.map((l) => l.text), button: words.button };
  const link = vars.link;
  const html =
    `<!DOCTYPE html><html><body style="font-family:sans-serif;background:#f6f6f6;padding:24px">` +
    `<div style="max-width:560px;margin:0 auto;background:#fff;padding:24px;border-radius:8px">` +
    `<h1 style="font-size:20px">${escapeHtml(body.heading)}</h1>` +
    body.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    (link && body.button
      ? `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(body.button)}</a></p><p style="font-size:12px;color:#666">${escapeHtml(link)}</p>`
      : '') +
    `</div></body></html>`;
  const text = [body.heading, '', ...body.lines, ...(link ? ['', link] : [])].join('\n');
  return { subject, html, text };
}

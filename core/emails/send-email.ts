import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { schemaError } from '../operations/validation.ts';
import { findCategory, usersAccepting } from '../notifications/index.ts';
import { enqueueEmail } from './outbox.ts';
import { renderInSandbox } from './sandbox.ts';
import { findDraft, findTemplate, resolveTheme } from './sources.ts';
import { ThemeIdFieldSchema, VariablesSchema } from './source-crud.ts';
import { findRecipients } from './queries.ts';
import { updateSource } from './queries.ts';
import { SendEmailOutput } from './outputs.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/**
 * Renders per user in the sandbox (template props `{user, project, variables}`) and queues
 * everything in one transaction (upstream `emails/send-email/route.tsx`). Every requested user is
 * listed as `{user_id}` (a user without a primary email gets no email), and a user
 * who turned the category off is listed but not sent to (transactional categories cannot be turned
 * off). `theme_id: false` renders without a theme. Custom emails need the project's own SMTP
 * server; an unknown template, draft or category name is 400 text, as upstream.
 */
export const sendEmail = defineOperation({
  id: 'emails.sendEmail',
  method: 'POST',
  path: '/emails/send-email',
  summary: 'Send an email to users.',
  access: ['server', 'admin'],
  input: {
    body: v.strictObject({
      user_ids: v.optional(v.array(UuidSchema)),
      all_users: v.optional(v.boolean()),
      theme_id: ThemeIdFieldSchema,
      html: v.optional(v.string()),
      subject: v.optional(v.string()),
      notification_category_name: v.optional(v.string()),
      template_id: v.optional(v.string()),
      variables: VariablesSchema,
      draft_id: v.optional(v.string()),
      /** Accepted as upstream's; Gatehouse's queue has one priority. */
      is_high_priority: v.optional(v.boolean()),
    }),
  },
  errors: ['SCHEMA_ERROR', 'EMAIL_RENDERING_ERROR', 'USER_ID_DOES_NOT_EXIST', 'REQUIRES_CUSTOM_EMAIL_SERVER'],
  output: SendEmailOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    const path = `${API_PREFIX}/emails/send-email`;
    if (project.config.emailConfig.type === 'shared') throw new KnownError('REQUIRES_CUSTOM_EMAIL_SERVER');
    if ((body.user_ids === undefined) === (body.all_users !== true))
      throw new KnownError('SCHEMA_ERROR', { message: 'Exactly one of user_ids or all_users must be provided' });
    const sources = [body.html !== undefined, body.template_id !== undefined, body.draft_id !== undefined].filter(Boolean).length;
    if (sources !== 1) throw schemaError('POST', path, ['body must contain exactly one of html, template_id or draft_id']);

    let templateSource: string | null = null;
    let templateThemeId: string | null | false = null;
    if (body.template_id !== undefined) {
      const t = await findTemplate(ctx.db, project.id, body.template_id);
      if (!t) throw new StatusError('bad-request', 'No template found with given template_id');
      templateSource = t.tsxSource;
      templateThemeId = t.themeId;
    } else if (body.draft_id !== undefined) {
      const d = await findDraft(ctx.db, project.id, body.draft_id);
      if (!d) throw new StatusError('bad-request', 'No draft found with given draft_id');
      templateSource = d.tsxSource;
      templateThemeId = d.themeId;
    }
    const themeSource =
      (await resolveTheme(ctx.db, project, body.theme_id === undefined || body.theme_id === null ? templateThemeId : body.theme_id))
        ?.tsxSource ?? null;
    if (body.notification_category_name !== undefined && !findCategory(body.notification_category_name)) {
      throw new StatusError('bad-request', 'Notification category not found with given name');
    }

    const recipients = await findRecipients(ctx.db, project.id, body.all_users ? null : [...new Set(body.user_ids)]);
    const byId = new Map(recipients.map((r) => [r.id, r]));
    const requested = body.user_ids ?? recipients.map((r) => r.id);
    const missing = requested.find((id) => !byId.has(id));
    if (missing) throw new KnownError('USER_ID_DOES_NOT_EXIST', { user_id: missing });

    const rendered: Array<{ userId: string; email: string; subject: string; html: string; category: string }> = [];
    for (const r of recipients) {
      if (!r.primary_email) continue;
      const out = await renderInSandbox(
        {
          themeSource,
          templateSource,
          html: body.html ?? null,
          props: { user: { displayName: r.display_name }, project: { displayName: project.displayName }, variables: body.variables ?? {} },
        },
        project.id,
      );
      const subject = body.subject ?? out.subject ?? '';
      const category = body.notification_category_name ?? out.notificationCategory ?? 'Transactional';
      rendered.push({ userId: r.id, email: r.primary_email, subject, html: out.html, category });
    }
    const categoryNames = new Set(rendered.map((r) => r.category));
    const accepted = new Set<string>();
    for (const name of categoryNames) {
      const category = findCategory(name);
      if (!category) throw new StatusError('bad-request', 'Notification category not found with given name');
      const ids = rendered.filter((r) => r.category === name).map((r) => r.userId);
      for (const id of await usersAccepting(ctx.db, project.id, ids, category)) accepted.add(`${name}:${id}`);
    }
    const toSend = rendered.filter((r) => accepted.has(`${r.category}:${r.userId}`));
    await ctx.transaction(async (tx) => {
      for (const r of toSend) {
        await enqueueEmail(tx, project, {
          to: r.email,
          subject: r.subject,
          html: r.html,
          userId: r.userId,
          toPrimaryEmail: true,
          notificationCategory: findCategory(r.category)!.name,
        });
      }
      if (body.draft_id !== undefined) await updateSource(tx.db, 'email_drafts', project.id, body.draft_id, { sent_at: tx.now });
    });
    return { results: requested.map((id) => ({ user_id: id })) };
  },
});

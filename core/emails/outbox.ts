import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { uuid } from '../lib/random.ts';
import { insertEmail, updateEmailIfStatus, type EmailRow } from './queries.ts';
import { routeFor } from './transport.ts';
import { kickEmailWorker } from './worker.ts';
import { redact, sealContent } from './sealed-body.ts';
import { createUnsubscribeLink, findCategory } from '../notifications/index.ts';
import { escapeHtml } from './built-in.ts';

/** One email to queue. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text?: string | null;
  userId?: string | null;
  /** True when `to` is the user's primary email as `send-email` addresses it (outbox `to.type`). */
  toPrimaryEmail?: boolean;
  /** Notification category id, for the sent log (preferences are checked by the caller). */
  notificationCategory?: string | null;
  /**
   * Codes and links the email carries (a sign-in code, a reset link…): the stored subject, HTML and
   * text have them redacted, and the live content is kept sealed until delivery.
   */
  secrets?: readonly string[];
  /**
   * Holds delivery for this many ms (default 0): the caller replaces the content after its
   * transaction commits (`releaseHeldEmail`); if that never happens (a crash), the email as queued
   * goes out once the hold ends.
   */
  holdMs?: number;
}

/**
 * Queues an email in the outbox. Uses `ctx.db`, so call it inside the transaction of the change
 * that caused the email: it commits with that change or not at all. After commit the delivery
 * worker is nudged; it sends through the project's route (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email): `standard` → the
 * project's SMTP, `shared` → GATEHOUSE_SMTP_URL, neither → the row stays in the outbox with
 * status `outbox`, readable through `GET /internal/emails`. With `secrets`, the row keeps only the
 * redacted content in clear and the live content sealed; delivery drops the sealed copy.
 *
 * @returns the email row id.
 */
export async function enqueueEmail(ctx: OperationContext, project: Project, email: OutgoingEmail): Promise<string> {
  const route = routeFor(project.config.emailConfig, ctx.runtime.smtpUrl, project.displayName);
  let { html, text } = email;
  let headers: Record<string, string> | null = null;
  const category = email.notificationCategory ? findCategory(email.notificationCategory) : null;
  if (category?.canDisable && email.userId) {
    // Notification emails carry an unsubscribe link and RFC 8058 one-click headers.
    const link = await createUnsubscribeLink(ctx, project.id, email.userId, category);
    html += `<p style="font-size:12px;color:#666"><a href="${escapeHtml(link)}">Unsubscribe</a> from ${escapeHtml(category.name)} emails.</p>`;
    if (text) text += `\n\nUnsubscribe from ${category.name} emails: ${link}`;
    headers = { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
  }
  const id = uuid();
  const secrets = email.secrets ?? [];
  const sealed = secrets.length > 0 ? sealContent(ctx.runtime, id, { subject: email.subject, html, text: text ?? null }) : null;
  const row: EmailRow = {
    id,
    project_id: project.id,
    user_id: email.userId ?? null,
    to_email: email.to,
    subject: redact(email.subject, secrets),
    html: redact(html, secrets),
    text: text == null ? null : redact(text, secrets),
    notification_category: email.notificationCategory ?? null,
    transport: route.kind === 'outbox' ? 'outbox' : project.config.emailConfig.type,
    status: route.kind === 'outbox' ? 'outbox' : 'pending',
    attempt_count: 0,
    next_attempt_at: ctx.now + (email.holdMs ?? 0),
    locked_until: null,
    error: null,
    created_at: ctx.now,
    sent_at: null,
    sealed_body: sealed,
    headers: headers ? JSON.stringify(headers) : null,
    recipient: email.toPrimaryEmail && email.userId ? 'user-primary-email' : null,
  };
  await insertEmail(ctx.db, row);
  if (route.kind !== 'outbox') {
    const runtime = ctx.runtime;
    ctx.afterCommit(() => kickEmailWorker(runtime));
  }
  return row.id;
}

/**
 * Ends the hold of an email queued with `holdMs`, after the transaction that queued it committed:
 * replaces its content with `content` (redacted and sealed as `enqueueEmail` does, with the same
 * `secrets`) unless it is null, makes it due now and nudges the worker. Does nothing once a
 * delivery attempt holds the row or the email left the queue.
 */
export async function releaseHeldEmail(
  runtime: OperationContext['runtime'],
  projectId: string,
  id: string,
  content: { subject: string; html: string; text: string | null } | null,
  secrets: readonly string[],
): Promise<void> {
  const now = runtime.clock.now();
  const changes =
    content === null
      ? { next_attempt_at: now }
      : {
          subject: redact(content.subject, secrets),
          html: redact(content.html, secrets),
          text: content.text === null ? null : redact(content.text, secrets),
          sealed_body: secrets.length > 0 ? sealContent(runtime, id, content) : null,
          next_attempt_at: now,
        };
  await updateEmailIfStatus(runtime.db, projectId, id, ['pending', 'outbox'], changes);
  kickEmailWorker(runtime);
}

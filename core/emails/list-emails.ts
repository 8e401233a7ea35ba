import { defineOperation } from '../operations/define.ts';
import { listProjectEmails, type EmailRow } from './queries.ts';
import { openContent } from './sealed-body.ts';
import type { Runtime } from '../runtime.ts';
import { ProjectEmailListOutput } from './outputs.ts';

/** The sent-log item (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email "Sent email: id, to, subject, sentAt, error") plus outbox fields. */
export function toWireEmail(row: EmailRow, runtime: Runtime) {
  // Not yet delivered (or kept in the built-in outbox, the only way such emails reach anyone): the
  // admin sees the live content. Delivered: only the redacted copy remains.
  const live = row.sealed_body === null ? null : openContent(runtime, row.id, row.sealed_body);
  return {
    id: row.id,
    to: [row.to_email],
    subject: live?.subject ?? row.subject,
    sent_at_millis: row.sent_at === null ? null : Number(row.sent_at),
    created_at_millis: Number(row.created_at),
    status: row.status,
    error: row.error,
    attempt_count: Number(row.attempt_count),
    html: live?.html ?? row.html,
    text: live ? live.text : row.text,
    user_id: row.user_id,
    notification_category: row.notification_category,
  };
}

/**
 * The project's emails newest first, including those kept in the built-in outbox when no SMTP
 * server is configured (`status: "outbox"`), pending retries (`pending`, with the last `error`)
 * and failures (`failed`).
 */
export const listEmails = defineOperation({
  id: 'emails.list',
  method: 'GET',
  path: '/internal/emails',
  summary: "List the project's sent and queued emails.",
  access: ['admin'],
  input: {},
  errors: [],
  output: ProjectEmailListOutput,
  async run(ctx) {
    const rows = await listProjectEmails(ctx.db, ctx.auth.project.id);
    return { items: rows.map((row) => toWireEmail(row, ctx.runtime)), is_paginated: false };
  },
});

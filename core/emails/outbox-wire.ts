import type { EmailRow } from './queries.ts';
import { findCategory } from '../notifications/index.ts';

/**
 * Upstream's outbox statuses (`emails/outbox/crud.tsx`) for Gatehouse's stored ones. Gatehouse
 * keeps rendered emails, so an email is never `preparing` / `rendering`:
 * `pending` → `queued`, `paused` → `paused`, `sent` → `sent`, `failed` → `server-error`,
 * `cancelled` → `skipped` (MANUALLY_CANCELLED), `outbox` (no email server configured, kept for
 * reading) → `skipped` (`NO_EMAIL_SERVER_CONFIGURED`, a Gatehouse reason).
 */
export const OUTBOX_STATUS: Record<string, { status: string; simple: 'in-progress' | 'ok' | 'error' }> = {
  pending: { status: 'queued', simple: 'in-progress' },
  paused: { status: 'paused', simple: 'in-progress' },
  sent: { status: 'sent', simple: 'ok' },
  failed: { status: 'server-error', simple: 'error' },
  cancelled: { status: 'skipped', simple: 'ok' },
  outbox: { status: 'skipped', simple: 'ok' },
};

/** Stored statuses that a wire `status` / `simple_status` filter selects. */
export function storedStatusesFor(filter: { status?: string; simple_status?: string }): string[] | undefined {
  if (filter.status === undefined && filter.simple_status === undefined) return undefined;
  return Object.entries(OUTBOX_STATUS)
    .filter(
      ([, w]) =>
        (filter.status === undefined || w.status === filter.status) &&
        (filter.simple_status === undefined || w.simple === filter.simple_status),
    )
    .map(([stored]) => stored);
}

/** An outbox email in upstream's server read shape (the fields Gatehouse has; see docs/compatibility.md). */
export function toOutboxEmail(row: EmailRow) {
  const mapped = OUTBOX_STATUS[row.status] ?? { status: 'queued', simple: 'in-progress' as const };
  const created = Number(row.created_at);
  const category = row.notification_category === null ? null : findCategory(row.notification_category);
  const base = {
    id: row.id,
    created_at_millis: created,
    updated_at_millis: Number(row.sent_at ?? row.created_at),
    tsx_source: '',
    theme_id: null,
    to: !row.user_id
      ? { type: 'custom-emails' as const, emails: [row.to_email] }
      : row.recipient === 'user-primary-email'
        ? { type: 'user-primary-email' as const, user_id: row.user_id }
        : { type: 'user-custom-emails' as const, user_id: row.user_id, emails: [row.to_email] },
    variables: {},
    skip_deliverability_check: false,
    scheduled_at_millis: Number(row.next_attempt_at ?? row.created_at),
    created_with: 'programmatic-call' as const,
    email_draft_id: null,
    email_programmatic_call_template_id: null,
    // A sent email's last attempt succeeded: the attempts before it were retries.
    send_retries: Math.max(0, row.status === 'sent' ? Number(row.attempt_count) - 1 : Number(row.attempt_count)),
    next_send_retry_at_millis: row.status === 'pending' && Number(row.attempt_count) > 0 ? Number(row.next_attempt_at) : null,
    send_attempt_errors: row.error
      ? [
          {
            attempt_number: Number(row.attempt_count),
            timestamp: new Date(created).toISOString(),
            external_message: row.error,
            external_details: {},
            internal_message: row.error,
            internal_details: {},
          },
        ]
      : null,
    is_paused: row.status === 'paused',
    status: mapped.status,
    simple_status: mapped.simple,
    // Rendered at queueing time.
    started_rendering_at_millis: created,
    rendered_at_millis: created,
    subject: row.subject,
    html: row.html,
    text: row.text,
    // Stored as the category's name; upstream answers the category's id.
    is_transactional: category === null || !category.canDisable,
    is_high_priority: false,
    notification_category_id: category?.id ?? null,
    has_rendered: true,
    has_delivered: row.status === 'sent',
  };
  if (row.status === 'sent')
    return {
      ...base,
      started_sending_at_millis: Number(row.sent_at),
      delivered_at_millis: Number(row.sent_at),
      can_have_delivery_info: false,
    };
  if (row.status === 'failed')
    return {
      ...base,
      started_sending_at_millis: Number(row.next_attempt_at),
      error_at_millis: Number(row.next_attempt_at),
      server_error: row.error ?? 'Unknown send error',
    };
  if (row.status === 'cancelled' || row.status === 'outbox') {
    return {
      ...base,
      skipped_at_millis: created,
      skipped_reason: row.status === 'cancelled' ? 'MANUALLY_CANCELLED' : 'NO_EMAIL_SERVER_CONFIGURED',
      skipped_details: {},
    };
  }
  return base;
}

/**
 * Table types (see core/storage/tables.ts for the conventions): Emails (outbox, themes, templates, drafts, capacity) and webhooks (endpoints, messages, deliveries, attempts).
 */
import type { Bool } from './columns.ts';

/** The email outbox and sent-email log (core/emails). */
export interface EmailsTable {
  id: string;
  project_id: string;
  user_id: string | null;
  to_email: string;
  subject: string;
  html: string;
  text: string | null;
  notification_category: string | null;
  /** `shared` (GATEHOUSE_SMTP_URL), `standard` (the project's SMTP) or `outbox` (kept, never sent). */
  transport: string;
  /** `pending`, `sent`, `failed` or `outbox`. */
  status: string;
  attempt_count: number;
  next_attempt_at: number;
  /** Lease of the worker delivering it (epoch ms), so several processes can share the table. */
  locked_until: number | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
  /**
   * The live subject, HTML and text of an email that carries a code or sign-in link, sealed
   * (core/emails/sealed-body.ts) while it may still be delivered or read from the built-in
   * outbox; `subject`/`html`/`text` hold the redacted form. Null once delivered or expired.
   */
  sealed_body: string | null;
  /** JSON object of extra headers (RFC 8058 List-Unsubscribe), or null. */
  headers: string | null;
  /** `user-primary-email` when addressed to the user's primary email (`send-email`), else null. */
  recipient: string | null;
}

/** Email themes, templates and drafts: TSX source per project (defaults are built in, rows override them). */
export interface EmailSourcesTable {
  project_id: string;
  id: string;
  display_name: string;
  tsx_source: string;
  theme_id: string | null;
  sent_at: number | null;
  created_at: number;
}

/** A project's email capacity boost (`POST /emails/capacity-boost`), one row per project. */
export interface EmailCapacityBoostsTable {
  project_id: string;
  /** Epoch ms when the boost ends. */
  expires_at: number;
}

/** A project's webhook endpoint (core/webhooks). The signing secret is sealed with a server-derived key. */
export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  description: string;
  /** JSON array of subscribed event types, or null for every type. */
  event_types: string | null;
  enabled: Bool;
  /** `whsec_…` sealed with AES-256-GCM (core/lib/secret-box.ts). */
  secret_sealed: string;
  disabled_reason: string | null;
  /** Deliveries that failed for good in a row; reset by any success. */
  consecutive_failures: number;
  created_at: number;
  updated_at: number;
}

/** One event, written in the transaction of the change; its id is the `webhook-id` / `svix-id`. */
export interface WebhookMessagesTable {
  id: string;
  project_id: string;
  event_type: string;
  /** JSON `{type, data}` exactly as sent. */
  payload: string;
  created_at: number;
}

/** One message to one endpoint: `pending` (with its next due time), `succeeded` or `failed`. */
export interface WebhookDeliveriesTable {
  id: string;
  project_id: string;
  endpoint_id: string;
  message_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: number | null;
  /** Lease of the process sending it (epoch ms). */
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

/** The log of every delivery attempt. */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  project_id: string;
  attempted_at: number;
  status_code: number | null;
  response_excerpt: string | null;
  duration_ms: number;
  error: string | null;
}

import * as v from 'valibot';
import { component, JsonOutput, listOutput, MillisOutput, NullableString, pagedListOutput } from '../operations/output.ts';

/**
 * Output schemas of the email operations (sent emails, the outbox API, themes, templates and
 * drafts), as they go on the wire.
 */

const Int = v.pipe(v.number(), v.integer());

/** `theme_id` of a template or draft: a theme's id, null for the project's theme, false for none. */
const ThemeIdOutput = v.nullable(v.union([v.string(), v.literal(false)]));

/** `{id}`: the id of a created theme, template or draft. */
export const CreatedSourceOutput = v.strictObject({ id: v.string() });

/** `{}`: upstream's answer to deleting a template. */
export const EmptyOutput = v.strictObject({});

export const EmailThemeListOutput = v.strictObject({ themes: v.array(v.strictObject({ id: v.string(), display_name: v.string() })) });
export const EmailThemeOutput = v.strictObject({ id: v.string(), display_name: v.string(), tsx_source: v.string() });
export const UpdatedThemeOutput = v.strictObject({ display_name: v.string() });

/** An email template: its TSX source and the theme it renders with. */
export const EmailTemplateOutput = component(
  'EmailTemplate',
  v.strictObject({ id: v.string(), display_name: v.string(), tsx_source: v.string(), theme_id: ThemeIdOutput }),
);
export const EmailTemplateListOutput = v.strictObject({ templates: v.array(EmailTemplateOutput) });
/** The template rendered once with sample props after saving. */
export const UpdatedTemplateOutput = v.strictObject({ rendered_html: v.string() });

/** An email draft; `sent_at_millis` once it has been sent. */
export const EmailDraftOutput = component(
  'EmailDraft',
  v.strictObject({
    id: v.string(),
    display_name: v.string(),
    tsx_source: v.string(),
    theme_id: ThemeIdOutput,
    sent_at_millis: v.nullable(MillisOutput),
  }),
);
export const EmailDraftListOutput = v.strictObject({ drafts: v.array(EmailDraftOutput) });

/** An email of the project as the dashboard lists it (live content until delivered, then redacted). */
export const ProjectEmailOutput = component(
  'ProjectEmail',
  v.strictObject({
    id: v.string(),
    to: v.array(v.string()),
    subject: v.string(),
    sent_at_millis: v.nullable(MillisOutput),
    created_at_millis: MillisOutput,
    /** `pending`, `sent`, `failed`, `cancelled`, `paused` or `outbox`. */
    status: v.string(),
    error: NullableString,
    attempt_count: Int,
    html: v.string(),
    text: NullableString,
    user_id: NullableString,
    notification_category: NullableString,
  }),
);
export const ProjectEmailListOutput = listOutput(ProjectEmailOutput);

/** One entry per requested user. */
export const SendEmailOutput = v.strictObject({ results: v.array(v.strictObject({ user_id: v.string() })) });

/** The rendered HTML; `subject` and `notification_category` only when the template declared them. */
export const RenderedEmailOutput = v.strictObject({
  html: v.string(),
  subject: v.optional(v.string()),
  notification_category: v.optional(v.string()),
});

/** Whether the SMTP server accepted the test email, with its error otherwise. */
export const TestEmailOutput = v.union([
  v.strictObject({ success: v.literal(true) }),
  v.strictObject({ success: v.literal(false), error_message: v.string() }),
]);

const outboxEntries = {
  id: v.string(),
  created_at_millis: MillisOutput,
  updated_at_millis: MillisOutput,
  tsx_source: v.string(),
  theme_id: v.null(),
  to: v.variant('type', [
    v.strictObject({ type: v.literal('user-primary-email'), user_id: v.string() }),
    v.strictObject({ type: v.literal('user-custom-emails'), user_id: v.string(), emails: v.array(v.string()) }),
    v.strictObject({ type: v.literal('custom-emails'), emails: v.array(v.string()) }),
  ]),
  variables: JsonOutput,
  skip_deliverability_check: v.boolean(),
  scheduled_at_millis: MillisOutput,
  created_with: v.literal('programmatic-call'),
  email_draft_id: v.null(),
  email_programmatic_call_template_id: v.null(),
  send_retries: Int,
  next_send_retry_at_millis: v.nullable(MillisOutput),
  send_attempt_errors: v.nullable(
    v.array(
      v.strictObject({
        attempt_number: Int,
        timestamp: v.string(),
        external_message: v.string(),
        external_details: JsonOutput,
        internal_message: v.string(),
        internal_details: JsonOutput,
      }),
    ),
  ),
  is_paused: v.boolean(),
  simple_status: v.picklist(['in-progress', 'ok', 'error']),
  started_rendering_at_millis: MillisOutput,
  rendered_at_millis: MillisOutput,
  subject: v.string(),
  html: v.string(),
  text: NullableString,
  is_transactional: v.boolean(),
  is_high_priority: v.boolean(),
  notification_category_id: NullableString,
  has_rendered: v.boolean(),
  has_delivered: v.boolean(),
};

/**
 * An outbox email in upstream's server read shape (`emails/outbox/crud.tsx`), the fields of each
 * status: sent ones their delivery times, failed ones the server error, skipped ones the reason.
 */
export const OutboxEmailOutput = component(
  'OutboxEmail',
  v.variant('status', [
    v.strictObject({ ...outboxEntries, status: v.picklist(['queued', 'paused']) }),
    v.strictObject({
      ...outboxEntries,
      status: v.literal('sent'),
      started_sending_at_millis: MillisOutput,
      delivered_at_millis: MillisOutput,
      can_have_delivery_info: v.boolean(),
    }),
    v.strictObject({
      ...outboxEntries,
      status: v.literal('server-error'),
      started_sending_at_millis: MillisOutput,
      error_at_millis: MillisOutput,
      server_error: v.string(),
    }),
    v.strictObject({
      ...outboxEntries,
      status: v.literal('skipped'),
      skipped_at_millis: MillisOutput,
      skipped_reason: v.string(),
      skipped_details: JsonOutput,
    }),
  ]),
);
export const OutboxEmailListOutput = pagedListOutput(OutboxEmailOutput);

const WindowStats = v.strictObject({ sent: Int, bounced: Int, marked_as_spam: Int });
/** Emails sent in the last hour, day, week and month, and the sending capacity (upstream's formula). */
export const DeliveryInfoOutput = v.strictObject({
  stats: v.strictObject({ hour: WindowStats, day: WindowStats, week: WindowStats, month: WindowStats }),
  capacity: v.strictObject({
    rate_per_second: v.number(),
    boost_multiplier: v.number(),
    penalty_factor: v.number(),
    is_boost_active: v.boolean(),
    /** ISO 8601 end of the latest boost, even once it has ended; null when the project never boosted. */
    boost_expires_at: v.nullable(v.string()),
  }),
});

/** `{expires_at}`: when the boost just activated ends (ISO 8601). */
export const CapacityBoostOutput = v.strictObject({ expires_at: v.string() });

/** `{ok: true}` once the queue step has run. */
export const QueueStepOutput = v.strictObject({ ok: v.boolean() });

/** The failed emails of the last 24 hours per project, with its owners' addresses (upstream's digest shape). */
export const FailedEmailsDigestOutput = v.strictObject({
  success: v.boolean(),
  error_message: v.optional(v.string()),
  failed_emails_by_tenancy: v.optional(
    v.array(
      v.strictObject({
        emails: v.array(v.strictObject({ subject: v.string(), to: v.array(v.string()) })),
        tenant_owner_emails: v.array(v.string()),
        project_id: v.string(),
        tenancy_id: v.string(),
      }),
    ),
  ),
});

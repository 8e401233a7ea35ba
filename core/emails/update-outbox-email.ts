import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { MillisSchema } from '../lib/schemas.ts';
import type { Updateable } from 'kysely';
import type { EmailsTable } from '../storage/tables.ts';
import { findEmail, updateEmailIfStatus } from './queries.ts';
import { OutboxIdParams } from './get-outbox-email.ts';
import { OUTBOX_STATUS, toOutboxEmail } from './outbox-wire.ts';
import { kickEmailWorker } from './worker.ts';
import { OutboxEmailOutput } from './outputs.ts';

/** Stored statuses upstream lets an admin edit (QUEUED, PAUSED, SERVER_ERROR in its terms). */
const EDITABLE = ['pending', 'paused', 'failed'];

/**
 * Edits a queued email (upstream `emails/outbox/crud.tsx`): `cancel` skips it for good
 * (`MANUALLY_CANCELLED`), `is_paused` holds or releases it, `scheduled_at_millis` sends it then (a
 * failed email is queued again). Only queued, paused or failed emails are editable, and not while
 * a delivery is in progress; an unknown id is 404 "Email not found". Gatehouse stores emails
 * rendered, so upstream's content fields (`tsx_source`, `theme_id`, `to`, `variables`) are not
 * accepted (docs/compatibility.md).
 */
export const updateOutboxEmail = defineOperation({
  id: 'emails.updateOutbox',
  method: 'PATCH',
  path: '/emails/outbox/:id',
  summary: 'Cancel, pause, resume or reschedule an email of the outbox.',
  access: ['server', 'admin'],
  input: {
    params: OutboxIdParams,
    body: v.strictObject({
      cancel: v.optional(v.literal(true)),
      is_paused: v.optional(v.boolean()),
      scheduled_at_millis: v.optional(MillisSchema),
    }),
  },
  errors: ['EMAIL_NOT_EDITABLE'],
  output: OutboxEmailOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    const current = await findEmail(ctx.db, projectId, params.id);
    if (!current) throw new StatusError('not-found', 'Email not found');
    const changes: Updateable<EmailsTable> = {};
    if (body.cancel) changes.status = 'cancelled';
    else {
      if (body.scheduled_at_millis !== undefined) {
        changes.next_attempt_at = body.scheduled_at_millis;
        changes.status = 'pending';
      }
      if (body.is_paused === true) changes.status = 'paused';
      else if (body.is_paused === false || (body.scheduled_at_millis !== undefined && current.status === 'failed'))
        changes.status = 'pending';
      if (current.status === 'failed' && changes.status === 'pending') changes.attempt_count = 0;
    }
    const changed =
      Object.keys(changes).length === 0
        ? EDITABLE.includes(current.status)
        : await updateEmailIfStatus(ctx.db, projectId, current.id, EDITABLE, changes);
    if (!changed) {
      const wire = OUTBOX_STATUS[current.status]?.status ?? current.status;
      throw new KnownError('EMAIL_NOT_EDITABLE', { email_id: current.id, status: wire.toUpperCase().replace(/-/g, '_') });
    }
    if (changes.status === 'pending') {
      const runtime = ctx.runtime;
      ctx.afterCommit(() => kickEmailWorker(runtime));
    }
    return toOutboxEmail((await findEmail(ctx.db, projectId, current.id))!);
  },
});

import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findEmail, listOutboxPage } from './queries.ts';
import { storedStatusesFor, toOutboxEmail } from './outbox-wire.ts';
import { OutboxEmailListOutput } from './outputs.ts';

/** Upstream's page size cap for the outbox. */
export const OUTBOX_MAX_LIMIT = 100;

/**
 * The outbox, newest first, at most 100 per page (upstream `emails/outbox/crud.tsx`: "Invalid
 * limit parameter", "Limit cannot exceed 100" as 400 text).
 */
export const listOutboxEmails = defineOperation({
  id: 'emails.listOutbox',
  method: 'GET',
  path: '/emails/outbox',
  summary: "List the project's email outbox.",
  access: ['server', 'admin'],
  input: {
    query: v.strictObject({
      status: v.optional(v.string()),
      simple_status: v.optional(v.string()),
      limit: v.optional(v.string()),
      cursor: v.optional(UuidSchema),
    }),
  },
  errors: [],
  output: OutboxEmailListOutput,
  async run(ctx, { query }) {
    const limit = query.limit === undefined ? OUTBOX_MAX_LIMIT : Number.parseInt(query.limit, 10);
    if (Number.isNaN(limit) || limit < 1) throw new StatusError('bad-request', 'Invalid limit parameter');
    if (limit > OUTBOX_MAX_LIMIT) throw new StatusError('bad-request', `Limit cannot exceed ${OUTBOX_MAX_LIMIT}`);
    const projectId = ctx.auth.project.id;
    const cursor = query.cursor ? await findEmail(ctx.db, projectId, query.cursor) : undefined;
    const rows = await listOutboxPage(ctx.db, projectId, { limit, cursor: cursor ?? undefined, statuses: storedStatusesFor(query) });
    const more = rows.length > limit;
    return {
      items: rows.slice(0, limit).map(toOutboxEmail),
      is_paginated: true,
      pagination: { next_cursor: more ? rows[limit]!.id : null },
    };
  },
});

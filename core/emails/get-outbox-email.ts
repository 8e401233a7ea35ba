import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { findEmail } from './queries.ts';
import { toOutboxEmail } from './outbox-wire.ts';
import { OutboxEmailOutput } from './outputs.ts';

export const OutboxIdParams = v.strictObject({ id: UuidSchema });

/** One email in upstream's outbox shape; an unknown id is 404 "Email not found". */
export const getOutboxEmail = defineOperation({
  id: 'emails.getOutbox',
  method: 'GET',
  path: '/emails/outbox/:id',
  summary: 'Read one email of the outbox.',
  access: ['server', 'admin'],
  input: { params: OutboxIdParams },
  errors: [],
  output: OutboxEmailOutput,
  async run(ctx, { params }) {
    const row = await findEmail(ctx.db, ctx.auth.project.id, params.id);
    if (!row) throw new StatusError('not-found', 'Email not found');
    return toOutboxEmail(row);
  },
});

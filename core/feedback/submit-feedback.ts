import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { SuccessOutput } from '../operations/output.ts';
import { StoredEmailSchema } from '../lib/schemas.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { findProject } from '../projects/index.ts';
import { findUser } from '../users/index.ts';
import { enqueueEmail, escapeHtml } from '../emails/index.ts';
import { enforcePublicAddressLimit } from '../throttle/index.ts';
import { operatorId } from '../ai-chat/index.ts';

/** Feedback messages per client address per hour (the route needs no credentials). */
export const FEEDBACK_PER_ADDRESS_HOUR = 10;

/**
 * `POST /internal/feedback` (no credentials needed; upstream
 * https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/internal/feedback/route.tsx): `{name?, email, message,
 * feedback_type?: "feedback" | "bug"}` → `{success: true}`. Upstream mails Stack's own inbox;
 * Gatehouse mails the server's operator (the first dashboard owner) through the internal project's
 * email route, subject `[Support] <email>` or `[Bug Report] <email>`, with the name, the address,
 * and the signed-in user's id and project when the caller has them. Throttled per client address
 * (10 an hour), since anyone may call it. Nobody to mail yet (no owner): accepted and logged.
 *
 * @throws RateLimitError (429).
 */
export const submitFeedback = defineOperation({
  id: 'feedback.submit',
  method: 'POST',
  path: '/internal/feedback',
  summary: 'Send feedback or a bug report to the server operator.',
  access: 'public',
  input: {
    body: v.strictObject({
      name: v.optional(v.pipe(v.string(), v.maxLength(100))),
      email: v.pipe(v.string(), v.nonEmpty('must not be empty'), StoredEmailSchema),
      message: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(5000)),
      feedback_type: v.optional(v.picklist(['feedback', 'bug'])),
    }),
  },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { body }) {
    await enforcePublicAddressLimit(ctx, 'feedback', { limit: FEEDBACK_PER_ADDRESS_HOUR, windowSeconds: 3600 });
    const internal = await findProject(ctx.db, INTERNAL_PROJECT_ID);
    const ownerId = await operatorId(ctx.db);
    const owner = ownerId ? await findUser(ctx.db, INTERNAL_PROJECT_ID, ownerId) : null;
    if (!internal || !owner?.primary_email) {
      ctx.runtime.log.warn(
        { feedback_type: body.feedback_type ?? 'feedback' },
        'feedback received, but the server has no operator with an email address to send it to',
      );
      return;
    }
    const label = body.feedback_type === 'bug' ? 'Bug Report' : 'Support';
    const lines: Array<[string, string]> = [
      ['Name', body.name ?? '(not given)'],
      ['Email', body.email],
      ...(ctx.auth?.user ? [['User ID', ctx.auth.user.id] as [string, string]] : []),
      ...(ctx.auth ? [['Project', ctx.auth.project.id] as [string, string]] : []),
    ];
    const text = `${lines.map(([k, val]) => `${k}: ${val}`).join('\n')}\n\n${body.message}`;
    const html = `${lines.map(([k, val]) => `<p><b>${escapeHtml(k)}:</b> ${escapeHtml(val)}</p>`).join('')}<p style="white-space:pre-wrap">${escapeHtml(body.message)}</p>`;
    await ctx.transaction((tx) =>
      enqueueEmail(tx, internal, { to: owner.primary_email!, userId: owner.id, subject: `[${label}] ${body.email}`, html, text }),
    );
  },
});

import * as v from 'valibot';
import { reply, type OperationContext, type RawReply } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { createVerificationCode, useVerificationCode } from '../verification-codes/index.ts';
import type { NotificationCategory } from './categories.ts';
import { upsertPreference } from './queries.ts';
import { API_PREFIX } from '../operations/api-path.ts';

/** Verification-code purpose of unsubscribe links. */
export const UNSUBSCRIBE_PURPOSE = 'unsubscribe';
/** How long an unsubscribe link works, in ms (90 days). */
export const UNSUBSCRIBE_LINK_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * A one-time unsubscribe link for `userId` and a category that can be turned off:
 * `<baseUrl>/api/v1/emails/unsubscribe-link?code=<45 characters>&project_id=<id>` (upstream's
 * route and code format; Gatehouse adds the project, since its codes are kept per project). The
 * same URL takes RFC 8058 one-click POSTs. Call it inside the transaction that queues the email.
 */
export async function createUnsubscribeLink(
  ctx: OperationContext,
  projectId: string,
  userId: string,
  category: NotificationCategory,
): Promise<string> {
  const { code } = await createVerificationCode(ctx, {
    projectId,
    purpose: UNSUBSCRIBE_PURPOSE,
    userId,
    subjectId: category.id,
    data: { user_id: userId, notification_category_id: category.id },
    expiresInMs: UNSUBSCRIBE_LINK_TTL_MS,
  });
  const url = new URL(`${ctx.runtime.baseUrl}${API_PREFIX}/emails/unsubscribe-link`);
  url.searchParams.set('code', code);
  url.searchParams.set('project_id', projectId);
  return url.toString();
}

const html = (body: string): RawReply => reply.html(body);

export const Query = v.strictObject({ code: v.optional(v.string()), project_id: v.optional(UuidSchema) });

export async function unsubscribe(ctx: OperationContext, query: v.InferOutput<typeof Query>): Promise<RawReply> {
  if (!query.code || query.code.length !== 45) throw new StatusError('bad-request', 'Invalid code');
  if (!query.project_id) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  try {
    await useVerificationCode<{ user_id: string; notification_category_id: string }, void>(
      ctx,
      query.project_id,
      UNSUBSCRIBE_PURPOSE,
      query.code,
      async (tx, code) => {
        await upsertPreference(tx.db, query.project_id!, code.data.user_id, code.data.notification_category_id, false);
      },
    );
  } catch (error) {
    if (error instanceof KnownError && error.code === 'VERIFICATION_CODE_ALREADY_USED')
      return html('<p>You have already unsubscribed from this notification group</p>');
    throw error;
  }
  return html('<p>Successfully unsubscribed from notification group</p>');
}

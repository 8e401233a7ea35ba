import { defineOperation } from '../operations/define.ts';
import { AppendMessageBodySchema, ThreadParams } from './schemas.ts';
import { contentText, ownThread } from './threads.ts';
import { appendMessages } from './queries.ts';
import { EmptyOutput } from './outputs.ts';

/**
 * Appends one message (any JSON, upstream stores it as given) to the caller's thread, creating
 * the thread on first use (admin access; another owner's thread is not found).
 *
 * @see upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/internal/ai-chat/[threadId]/route.tsx (PATCH)
 */
export const appendChatMessage = defineOperation({
  id: 'aiChat.append',
  method: 'PATCH',
  path: '/internal/ai-chat/:thread_id',
  summary: 'Append a message to a dashboard assistant thread.',
  access: ['admin'],
  input: { params: ThreadParams, body: AppendMessageBodySchema },
  output: EmptyOutput,
  errors: ['AI_CHAT_THREAD_NOT_FOUND'],
  async run(ctx, { params, body }) {
    const message = body.message as unknown;
    const title = contentText((message as { content?: unknown } | null)?.content ?? message).split('\n')[0] ?? '';
    await ctx.transaction(async (tx) => {
      await ownThread(tx, params.thread_id, title);
      await appendMessages(tx.db, tx.auth.project.id, params.thread_id, [message], tx.now);
    });
    return {};
  },
});

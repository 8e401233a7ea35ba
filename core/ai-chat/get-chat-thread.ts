import { defineOperation } from '../operations/define.ts';
import { ThreadParams } from './schemas.ts';
import { ownThread } from './threads.ts';
import { listMessages } from './queries.ts';
import { ChatMessagesOutput } from './outputs.ts';

/**
 * Reads the thread's stored messages in order, as appended (admin access; upstream's shape).
 * Another owner's or another project's thread is not found.
 *
 * @see upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/internal/ai-chat/[threadId]/route.tsx (GET)
 */
export const getChatThread = defineOperation({
  id: 'aiChat.get',
  method: 'GET',
  path: '/internal/ai-chat/:thread_id',
  summary: 'Read the messages of a dashboard assistant thread.',
  access: ['admin'],
  input: { params: ThreadParams },
  output: ChatMessagesOutput,
  errors: ['AI_CHAT_THREAD_NOT_FOUND'],
  async run(ctx, { params }) {
    await ownThread(ctx, params.thread_id);
    return { messages: await listMessages(ctx.db, ctx.auth.project.id, params.thread_id) };
  },
});

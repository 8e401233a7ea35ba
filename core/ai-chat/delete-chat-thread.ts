import { defineOperation } from '../operations/define.ts';
import { ThreadParams } from './schemas.ts';
import { ownThread } from './threads.ts';
import { deleteThread } from './queries.ts';
import { EmptyOutput } from './outputs.ts';

/**
 * Deletes the caller's thread and its messages (admin access; a Gatehouse extension for the
 * dashboard's thread list).
 */
export const deleteChatThread = defineOperation({
  id: 'aiChat.delete',
  method: 'DELETE',
  path: '/internal/ai-chat/:thread_id',
  summary: 'Delete a dashboard assistant thread.',
  access: ['admin'],
  input: { params: ThreadParams },
  output: EmptyOutput,
  errors: ['AI_CHAT_THREAD_NOT_FOUND'],
  ignoresBody: true,
  async run(ctx, { params }) {
    await ownThread(ctx, params.thread_id);
    await deleteThread(ctx.db, ctx.auth.project.id, params.thread_id);
    return {};
  },
});

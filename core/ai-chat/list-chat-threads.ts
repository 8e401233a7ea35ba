import { defineOperation } from '../operations/define.ts';
import { listThreads } from './queries.ts';
import { ownerOf } from './threads.ts';
import { ChatThreadsOutput } from './outputs.ts';

/**
 * Lists the caller's threads (admin access) in this project, most recently used first (at most 50). A Gatehouse
 * extension for the dashboard's thread list (upstream lists conversations under
 * `/internal/ai-conversations`).
 */
export const listChatThreads = defineOperation({
  id: 'aiChat.list',
  method: 'GET',
  path: '/internal/ai-chat',
  summary: "List the caller's dashboard assistant threads in the project.",
  access: ['admin'],
  input: {},
  output: ChatThreadsOutput,
  errors: [],
  async run(ctx) {
    const rows = await listThreads(ctx.db, ctx.auth.project.id, ownerOf(ctx.auth), 50);
    return {
      threads: rows.map((t) => ({
        id: t.id,
        title: t.title,
        created_at_millis: Number(t.created_at),
        updated_at_millis: Number(t.updated_at),
      })),
    };
  },
});

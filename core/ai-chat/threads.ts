import { KnownError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { OperationContext } from '../operations/define.ts';
import { ensureThread, findThread, type ThreadRow } from './queries.ts';

/**
 * Who owns the threads a caller makes: the dashboard owner behind the admin access token, or,
 * for callers with the project's admin key, the key holders together.
 */
export function ownerOf(auth: RequestAuth): string {
  return auth.adminUserId ? `user:${auth.adminUserId}` : `key:${auth.project.id}`;
}

/**
 * The caller's thread. A thread of another owner, or of another project (the lookup is
 * scoped to the request's project), answers AI_CHAT_THREAD_NOT_FOUND exactly like a missing one.
 *
 * @param createTitle when given, a missing thread is created with this title.
 * @throws KnownError AI_CHAT_THREAD_NOT_FOUND.
 */
export async function ownThread(ctx: OperationContext<RequestAuth>, threadId: string, createTitle?: string): Promise<ThreadRow> {
  const owner = ownerOf(ctx.auth);
  let thread = await findThread(ctx.db, ctx.auth.project.id, threadId);
  if (!thread && createTitle !== undefined) {
    thread = await ensureThread(ctx.db, {
      project_id: ctx.auth.project.id,
      id: threadId,
      owner,
      title: createTitle.slice(0, 120) || 'New chat',
      created_at: ctx.now,
      updated_at: ctx.now,
    });
  }
  if (!thread || thread.owner !== owner) throw new KnownError('AI_CHAT_THREAD_NOT_FOUND', { thread_id: threadId });
  return thread;
}

/** The text of a message's content: a string, or the `text` of its text blocks. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        typeof part === 'object' &&
        part !== null &&
        (part as { type?: unknown }).type === 'text' &&
        typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .filter(Boolean)
      .join('\n');
  }
  if (typeof content === 'object' && content !== null && typeof (content as { text?: unknown }).text === 'string')
    return (content as { text: string }).text;
  return '';
}

import * as v from 'valibot';
import { QueryBooleanSchema } from '../lib/schemas.ts';

/** Largest stored or sent conversation, in characters of JSON (about 25,000 tokens). */
export const MAX_CONVERSATION_CHARS = 100_000;

const sizeAtMost = (max: number) => (value: unknown) => JSON.stringify(value ?? null).length <= max;

/** A thread id as the dashboard makes them (a UUID) or any short token. */
export const ThreadParams = v.strictObject({
  thread_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, - or _')),
});

/** One message: upstream's `{role, content}` with any content (text, or content blocks). */
const MessageSchema = v.strictObject({
  role: v.picklist(['user', 'assistant', 'tool']),
  content: v.unknown(),
});

/**
 * `POST /internal/ai-chat/{thread_id}` body, upstream's shape: `context_type` names what the
 * owner is working on (upstream's email editors, or `dashboard`), `messages` the conversation so
 * far ending with the owner's question.
 */
export const PostChatBodySchema = v.strictObject({
  context_type: v.picklist(['dashboard', 'email-theme', 'email-template', 'email-draft']),
  messages: v.pipe(
    v.array(MessageSchema),
    v.minLength(1, 'must hold at least one message'),
    v.maxLength(200, 'must hold at most 200 messages'),
    v.check<{ role: 'user' | 'assistant' | 'tool'; content: unknown }[], string>(
      sizeAtMost(MAX_CONVERSATION_CHARS),
      `must be at most ${MAX_CONVERSATION_CHARS} characters as JSON`,
    ),
  ),
});

/** `?stream=true` answers with server-sent events instead of one JSON body (a Gatehouse extension). */
export const PostChatQuerySchema = v.strictObject({ stream: v.optional(QueryBooleanSchema) });

/** `PATCH /internal/ai-chat/{thread_id}` body: one message to append, any JSON (upstream: `yupMixed`). */
export const AppendMessageBodySchema = v.strictObject({
  message: v.pipe(
    v.unknown(),
    v.check((m) => m !== undefined, 'must be defined'),
    v.check(sizeAtMost(MAX_CONVERSATION_CHARS), `must be at most ${MAX_CONVERSATION_CHARS} characters as JSON`),
  ),
});

/** `PATCH /internal/server-settings/assistant` body: a string sets a value, null clears it. */
export const AssistantSettingsBodySchema = v.strictObject({
  base_url: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.maxLength(2048),
        v.check((s) => {
          try {
            const u = new URL(s);
            return u.protocol === 'http:' || u.protocol === 'https:';
          } catch {
            return false;
          }
        }, 'must be an absolute http or https URL'),
      ),
    ),
  ),
  model: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200)))),
  api_key: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(4096)))),
});

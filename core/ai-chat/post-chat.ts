import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { defineOperation, reply, type OperationContext } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { PostChatBodySchema, PostChatQuerySchema, ThreadParams } from './schemas.ts';
import { resolveAiEndpoint } from './settings.ts';
import { checkAssistantLimits, spendTokens } from './limits.ts';
import { contentText, ownThread } from './threads.ts';
import { systemPrompt } from './context.ts';
import { converse, ModelError, type ToolCallBlock } from './model.ts';
import { runTool } from './tools.ts';
import { appendMessages } from './queries.ts';
import { ChatContentOutput } from './outputs.ts';

type Message = { role: 'user' | 'assistant' | 'tool'; content: unknown };
type ContentBlock = { type: 'text'; text: string } | ToolCallBlock;

/** The conversation in chat-completions form: user and assistant text; tool turns are not replayed. */
function toModelMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const m of messages) {
    const text = contentText(m.content);
    if (!text || m.role === 'tool') continue;
    out.push(m.role === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: text });
  }
  return out;
}

/** The owner's new messages: those after the last assistant or tool message. */
function newMessages(messages: readonly Message[]): Message[] {
  let i = messages.length;
  while (i > 0 && messages[i - 1]!.role === 'user') i--;
  return messages.slice(i);
}

/** Upstream's content blocks from the answer's events: text runs merged, tool calls in order. */
function pushText(blocks: ContentBlock[], text: string): void {
  const last = blocks[blocks.length - 1];
  if (last?.type === 'text') last.text += text;
  else blocks.push({ type: 'text', text });
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Answers the conversation as the assistant (admin access), from the OpenAI-compatible model endpoint the operator configured.
 *
 * Without `?stream=true` the answer is one JSON body `{content: [blocks]}`, upstream's shape
 * (`text` blocks and `tool-call` blocks `{toolName, toolCallId, args, argsText, result}`). With it,
 * server-sent events: `text` `{text}` per piece as it arrives, `tool-call` (a block), then `done`
 * `{content}`, or `error` `{code, error}` in plain words when the endpoint fails mid-way; closing
 * the connection stops the answer. Either way the owner's new messages and the answer (as far as
 * it got, `stopped: true` when cut short) are appended to the thread, which is created on first
 * use and belongs to the caller (see threads.ts).
 *
 * The model sees the project's non-secret settings, related Gatehouse docs (context.ts) and the
 * read-only tools (tools.ts), which run with the caller's admin access to this project only.
 * The owner's rate limit applies.
 *
 * @see upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/internal/ai-chat/[threadId]/route.tsx (POST)
 */
export const postChat = defineOperation({
  id: 'aiChat.post',
  method: 'POST',
  path: '/internal/ai-chat/:thread_id',
  summary: 'Ask the dashboard assistant; the answer is stored in the thread.',
  access: ['admin'],
  input: { params: ThreadParams, query: PostChatQuerySchema, body: PostChatBodySchema },
  output: ChatContentOutput,
  errors: ['AI_CHAT_NOT_CONFIGURED', 'AI_CHAT_THREAD_NOT_FOUND', 'AI_CHAT_TOKEN_BUDGET_EXCEEDED', 'AI_CHAT_MODEL_ERROR'],
  async run(ctx, { params, query, body }) {
    const endpoint = await resolveAiEndpoint(ctx.runtime, ctx.db);
    if (!endpoint) throw new KnownError('AI_CHAT_NOT_CONFIGURED');
    const messages = body.messages as Message[];
    const asked = newMessages(messages);
    const question = contentText(asked[asked.length - 1]?.content ?? '');
    await ownThread(ctx, params.thread_id, question.split('\n')[0] ?? '');
    await checkAssistantLimits(ctx);

    const answer = (signal: AbortSignal) =>
      converse({
        endpoint,
        system: systemPrompt(ctx.auth.project, ctx.runtime.ai.docs(), question),
        messages: toModelMessages(messages),
        timeoutMs: ctx.runtime.ai.timeoutMs,
        maxToolRounds: ctx.runtime.ai.maxToolRounds,
        runTool: (name, args) => runTool(ctx, name, args),
        signal,
      });
    const store = (blocks: ContentBlock[], tokens: number, extra: Record<string, unknown> = {}) =>
      ctx
        .transaction(async (tx) => {
          await appendMessages(
            tx.db,
            ctx.auth.project.id,
            params.thread_id,
            [...asked, { role: 'assistant', content: blocks, ...extra }],
            Date.now(),
          );
        })
        .then(() => spendTokens(ctx, tokens));

    if (!query.stream) {
      const blocks: ContentBlock[] = [];
      let tokens = 0;
      try {
        for await (const event of answer(new AbortController().signal)) {
          if (event.type === 'text') pushText(blocks, event.text);
          else if (event.type === 'tool-call') blocks.push(event.block);
          else tokens = event.tokens;
        }
      } catch (error) {
        if (error instanceof ModelError) throw new KnownError('AI_CHAT_MODEL_ERROR', { message: error.message });
        throw error;
      }
      await store(blocks, tokens);
      return { content: blocks };
    }

    return reply.events((signal) => streamAnswer(ctx, signal, answer, store));
  },
});

async function* streamAnswer(
  ctx: OperationContext<RequestAuth>,
  signal: AbortSignal,
  answer: (signal: AbortSignal) => AsyncGenerator<import('./model.ts').AssistantEvent>,
  store: (blocks: ContentBlock[], tokens: number, extra?: Record<string, unknown>) => Promise<void>,
): AsyncGenerator<string> {
  const blocks: ContentBlock[] = [];
  let tokens = 0;
  let failed: string | null = null;
  try {
    for await (const event of answer(signal)) {
      if (event.type === 'text') {
        pushText(blocks, event.text);
        yield sse('text', { text: event.text });
      } else if (event.type === 'tool-call') {
        blocks.push(event.block);
        yield sse('tool-call', event.block);
      } else tokens = event.tokens;
    }
  } catch (error) {
    failed = error instanceof ModelError ? error.message : 'The assistant failed unexpectedly.';
    if (!(error instanceof ModelError))
      ctx.runtime.log.error({ err: error instanceof Error ? (error.stack ?? error.message) : String(error) }, 'assistant stream failed');
  } finally {
    // Stored whatever happened: a stopped or failed answer keeps what had arrived.
    const stopped = signal.aborted;
    if (stopped && tokens === 0) tokens = Math.ceil(JSON.stringify(blocks).length / 4);
    try {
      await store(blocks, tokens, stopped ? { stopped: true } : failed ? { error: failed } : {});
    } catch (error) {
      ctx.runtime.log.error({ err: error instanceof Error ? error.message : String(error) }, 'assistant answer not stored');
    }
  }
  if (failed) yield sse('error', { code: 'AI_CHAT_MODEL_ERROR', error: failed });
  else if (!signal.aborted) yield sse('done', { content: blocks });
}

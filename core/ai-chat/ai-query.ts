import * as v from 'valibot';
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { defineOperation, reply, type OperationContext } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { INTERNAL_PROJECT_ID, type RequestAuth } from '../auth/request-auth.ts';
import { findProject, type Project } from '../projects/index.ts';
import { listUserTeamIds } from '../teams/index.ts';
import { uuid } from '../lib/random.ts';
import { JsonOutput } from '../operations/output.ts';
import { resolveAiEndpoint } from './settings.ts';
import { checkAssistantLimits, spendTokens } from './limits.ts';
import { contentText } from './threads.ts';
import { systemPrompt } from './context.ts';
import { converse, ModelError, type AssistantEvent, type ToolCallBlock } from './model.ts';
import { runTool } from './tools.ts';
import { MAX_CONVERSATION_CHARS } from './schemas.ts';
import { AiQueryBody, AiQueryParams, validToolNames, type AiQueryMessage } from './query-schemas.ts';
import { imageAttachmentProblem } from './image-limits.ts';
import { TASKS } from './query-prompts.ts';

type ContentBlock = { type: 'text'; text: string } | ToolCallBlock;

const NO_ACCESS = 'You do not have access to this project';

/**
 * A message in chat-completions form: user text and `image` parts (data URLs only: the model
 * endpoint fetches other URLs itself, so none is passed on), assistant text; tool turns are not
 * replayed. Null when nothing is left.
 */
function toModelMessage(m: AiQueryMessage): ChatCompletionMessageParam | null {
  if (m.role === 'tool') return null;
  if (m.role === 'assistant') {
    const text = contentText(m.content);
    return text ? { role: 'assistant', content: text } : null;
  }
  if (!Array.isArray(m.content)) {
    const text = contentText(m.content);
    return text ? { role: 'user', content: text } : null;
  }
  const parts: ChatCompletionContentPart[] = [];
  for (const part of m.content as unknown[]) {
    if (typeof part !== 'object' || part === null) continue;
    const p = part as { type?: unknown; text?: unknown; image?: unknown };
    if (p.type === 'text' && typeof p.text === 'string') parts.push({ type: 'text', text: p.text });
    else if (p.type === 'image' && typeof p.image === 'string' && p.image.startsWith('data:image/'))
      parts.push({ type: 'image_url', image_url: { url: p.image } });
  }
  return parts.length > 0 ? { role: 'user', content: parts } : null;
}

/** Who is asking, for the rate limit: the dashboard owner (admin token or internal user), else the project's key holders. */
function askerOf(auth: RequestAuth): string {
  if (auth.adminUserId) return `user:${auth.adminUserId}`;
  if (auth.project.id === INTERNAL_PROJECT_ID && auth.user) return `user:${auth.user.id}`;
  return `key:${auth.project.id}`;
}

/**
 * The project the question is about: `projectId` when given, which needs a signed-in user of the
 * internal project who owns it (upstream's rule, 403 otherwise); else the request's project.
 *
 * @throws StatusError 403 "You do not have access to this project".
 */
async function subjectProject(ctx: OperationContext<RequestAuth | null>, projectId: string | null | undefined): Promise<Project | null> {
  const auth = ctx.auth;
  if (projectId == null) return auth?.project ?? null;
  if (auth?.project.id !== INTERNAL_PROJECT_ID || !auth.user) throw new StatusError('forbidden', NO_ACCESS);
  const project = await findProject(ctx.db, projectId);
  const teams = await listUserTeamIds(ctx.db, INTERNAL_PROJECT_ID, auth.user.id);
  if (!project || !project.ownerTeamId || !teams.includes(project.ownerTeamId)) throw new StatusError('forbidden', NO_ACCESS);
  return project;
}

/** The text of the answer's last step (after its last tool call): the AI SDK's `result.text`. */
function finalText(blocks: readonly ContentBlock[]): string {
  let text = '';
  for (const b of blocks) text = b.type === 'tool-call' ? '' : text + b.text;
  return text;
}

const sse = (chunk: unknown) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`;

/**
 * `POST /ai/query/{mode}` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/ai/query/[mode]/route.ts):
 * one question to the model, without a stored thread. Checks in upstream's order: the body's
 * schema (SCHEMA_ERROR), tool names (400 "Invalid tool names in request."), `projectId` (403 unless
 * an internal-project user who owns it), image attachments (400, upstream's limits and words).
 *
 * Then, unlike upstream (whose model is Stack's hosted service), the caller must hold admin access
 * to the request's project or be a signed-in dashboard owner (403 otherwise): the model endpoint
 * and its budget are the operator's (docs/compatibility.md). The answer comes from the assistant's
 * endpoint (AI_CHAT_NOT_CONFIGURED without one), with its rate limit and daily token budget, its
 * secret handling, the project's non-secret settings and related docs as context, and its
 * read-only tools when any tool is asked for by an admin of the request's project. `quality` and
 * `speed` are accepted and pick nothing: there is one model.
 *
 * `generate` answers `{content, finalText, conversationId}` (`conversationId` only with
 * `mcpCallMetadata`); `stream` answers the AI SDK's UI message stream (server-sent events:
 * `start`, `text-delta`…, `tool-input-available` / `tool-output-available`, `finish`, `[DONE]`).
 */
export const aiQuery = defineOperation({
  id: 'aiChat.query',
  method: 'POST',
  path: '/ai/query/:mode',
  summary: 'Ask the model one question (generate or stream), with no stored thread.',
  access: 'public',
  input: { params: AiQueryParams, body: AiQueryBody },
  output: v.strictObject({
    content: v.array(
      v.union([
        v.strictObject({ type: v.literal('text'), text: v.string() }),
        v.strictObject({
          type: v.literal('tool-call'),
          toolName: v.string(),
          toolCallId: v.string(),
          args: JsonOutput,
          argsText: v.string(),
          result: JsonOutput,
        }),
      ]),
    ),
    finalText: v.string(),
    conversationId: v.nullable(v.string()),
  }),
  errors: ['AI_CHAT_NOT_CONFIGURED', 'AI_CHAT_TOKEN_BUDGET_EXCEEDED', 'AI_CHAT_MODEL_ERROR'],
  async run(ctx, { params, body }) {
    if (!validToolNames(body.tools)) throw new StatusError('bad-request', 'Invalid tool names in request.');
    const project = await subjectProject(ctx, body.projectId);
    const imageProblem = imageAttachmentProblem(body.messages);
    if (imageProblem) throw new StatusError('bad-request', imageProblem);
    const auth = ctx.auth;
    const isOwner = auth !== null && (auth.accessType === 'admin' || (auth.project.id === INTERNAL_PROJECT_ID && auth.user !== null));
    if (!auth || !project || !isOwner)
      throw new StatusError(
        'forbidden',
        "The AI query endpoint needs admin access to a project, or a signed-in dashboard owner: the model endpoint and its budget are the server operator's.",
      );
    const messages = body.messages.map(toModelMessage).filter((m): m is ChatCompletionMessageParam => m !== null);
    const textChars = JSON.stringify(messages.map((m) => (typeof m.content === 'string' ? m.content : ''))).length;
    if (messages.length === 0) throw new StatusError('bad-request', 'The messages hold no text or image to answer.');
    if (textChars > MAX_CONVERSATION_CHARS)
      throw new StatusError('bad-request', `The conversation is longer than ${MAX_CONVERSATION_CHARS} characters.`);

    const endpoint = await resolveAiEndpoint(ctx.runtime, ctx.db);
    if (!endpoint) throw new KnownError('AI_CHAT_NOT_CONFIGURED');
    const authed = ctx as OperationContext<RequestAuth>;
    await checkAssistantLimits(authed, askerOf(auth));
    const question = contentText(body.messages.findLast((m) => m.role === 'user')?.content ?? '');
    const withTools = auth.accessType === 'admin' && body.projectId == null && body.tools.length > 0;
    const answer = (signal: AbortSignal) =>
      converse({
        endpoint,
        system: `${systemPrompt(project, ctx.runtime.ai.docs(), question)}\n\n${TASKS[body.systemPrompt]}`,
        messages,
        timeoutMs: ctx.runtime.ai.timeoutMs,
        maxToolRounds: withTools ? ctx.runtime.ai.maxToolRounds : 0,
        runTool: (name, args) => runTool(authed, name, args),
        signal,
      });
    const conversationId = body.mcpCallMetadata ? (body.mcpCallMetadata.conversationId ?? uuid()) : null;

    if (params.mode === 'generate') {
      const blocks: ContentBlock[] = [];
      let tokens = 0;
      try {
        for await (const event of answer(new AbortController().signal)) {
          if (event.type === 'text') {
            const last = blocks[blocks.length - 1];
            if (last?.type === 'text') last.text += event.text;
            else blocks.push({ type: 'text', text: event.text });
          } else if (event.type === 'tool-call') blocks.push(event.block);
          else tokens = event.tokens;
        }
      } catch (error) {
        if (error instanceof ModelError) throw new KnownError('AI_CHAT_MODEL_ERROR', { message: error.message });
        throw error;
      }
      await spendTokens(authed, tokens);
      return { content: blocks, finalText: finalText(blocks), conversationId };
    }
    return reply.events((signal) => uiMessageStream(authed, signal, answer));
  },
});

/**
 * The answer as the AI SDK's UI message stream (what upstream's `toUIMessageStreamResponse()`
 * sends): one `data:` event per chunk, ending with `[DONE]`; a failure mid-way is an `error`
 * chunk in plain words. Tokens are counted against the budget however it ends.
 */
async function* uiMessageStream(
  ctx: OperationContext<RequestAuth>,
  signal: AbortSignal,
  answer: (signal: AbortSignal) => AsyncGenerator<AssistantEvent>,
): AsyncGenerator<string> {
  let tokens = 0;
  let chars = 0;
  let textId: string | null = null;
  let part = 0;
  yield sse({ type: 'start', messageId: uuid() });
  yield sse({ type: 'start-step' });
  try {
    for await (const event of answer(signal)) {
      if (event.type === 'text') {
        if (textId === null) {
          textId = String(part++);
          yield sse({ type: 'text-start', id: textId });
        }
        chars += event.text.length;
        yield sse({ type: 'text-delta', id: textId, delta: event.text });
      } else if (event.type === 'tool-call') {
        if (textId !== null) {
          yield sse({ type: 'text-end', id: textId });
          textId = null;
        }
        const { toolCallId, toolName, args, result } = event.block;
        yield sse({ type: 'tool-input-available', toolCallId, toolName, input: args });
        yield sse({ type: 'tool-output-available', toolCallId, output: result });
        yield sse({ type: 'finish-step' });
        yield sse({ type: 'start-step' });
      } else tokens = event.tokens;
    }
    if (textId !== null) yield sse({ type: 'text-end', id: textId });
    yield sse({ type: 'finish-step' });
    yield sse({ type: 'finish' });
  } catch (error) {
    const text = error instanceof ModelError ? error.message : 'The model failed unexpectedly.';
    if (!(error instanceof ModelError))
      ctx.runtime.log.error({ err: error instanceof Error ? (error.stack ?? error.message) : String(error) }, 'AI query stream failed');
    yield sse({ type: 'error', errorText: text });
  } finally {
    await spendTokens(ctx, tokens > 0 ? tokens : Math.ceil(chars / 4)).catch(() => {});
  }
  if (!signal.aborted) yield sse('[DONE]');
}

import * as v from 'valibot';

/**
 * The names upstream's `/ai/query/{mode}` body accepts (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/ai/schema.ts,
 * models.ts, prompts.ts and tools/index.ts). Gatehouse answers every one of them from the one model
 * the operator configured: quality and speed pick nothing (there is one model), and the prompt id
 * adds a line naming the task (prompts.ts).
 */
export const MODEL_QUALITIES = ['dumb', 'smart', 'smartest'] as const;
export const MODEL_SPEEDS = ['slow', 'fast'] as const;
export const SYSTEM_PROMPT_IDS = [
  'command-center-ask-ai',
  'docs-ask-ai',
  'wysiwyg-edit',
  'email-wysiwyg-editor',
  'email-assistant-template',
  'email-assistant-theme',
  'email-assistant-draft',
  'create-dashboard',
  'run-query',
  'build-analytics-query',
  'rewrite-template-source',
] as const;
export const TOOL_NAMES = [
  'docs',
  'sql-query',
  'create-email-theme',
  'create-email-template',
  'create-email-draft',
  'update-dashboard',
] as const;

export type SystemPromptId = (typeof SYSTEM_PROMPT_IDS)[number];
export type ToolName = (typeof TOOL_NAMES)[number];

/** `{mode}`: `generate` answers one JSON body, `stream` an AI SDK UI message stream (server-sent events). */
export const AiQueryParams = v.strictObject({ mode: v.picklist(['stream', 'generate']) });

/** One message as the AI SDK writes them: `{role, content}`, content a string or a list of parts. */
const MessageSchema = v.strictObject({
  role: v.picklist(['user', 'assistant', 'tool']),
  content: v.pipe(
    v.unknown(),
    v.check((c) => c !== undefined, 'must be defined'),
  ),
});

/**
 * The body, as upstream's: tool names are strings here and checked after validation (upstream
 * answers an unknown one with a plain 400, not SCHEMA_ERROR); at most 200 messages.
 */
export const AiQueryBody = v.strictObject({
  quality: v.picklist(MODEL_QUALITIES),
  speed: v.picklist(MODEL_SPEEDS),
  tools: v.array(v.pipe(v.string(), v.maxLength(100))),
  systemPrompt: v.picklist(SYSTEM_PROMPT_IDS),
  messages: v.pipe(v.array(MessageSchema), v.minLength(1, 'must have at least 1 items'), v.maxLength(200, 'must have at most 200 items')),
  projectId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  mcpCallMetadata: v.optional(
    v.nullable(
      v.strictObject({
        toolName: v.pipe(v.string(), v.maxLength(200)),
        reason: v.pipe(v.string(), v.maxLength(10_000)),
        userPrompt: v.pipe(v.string(), v.maxLength(10_000)),
        conversationId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200)))),
      }),
    ),
  ),
});

export type AiQueryMessage = v.InferOutput<typeof MessageSchema>;

/** Whether every requested tool is one upstream knows (upstream tools/index.ts `validateToolNames`). */
export function validToolNames(tools: readonly string[]): tools is ToolName[] {
  return tools.every((t) => (TOOL_NAMES as readonly string[]).includes(t));
}

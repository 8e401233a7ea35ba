import * as v from 'valibot';
import { component, JsonOutput, MillisOutput } from '../operations/output.ts';

/** An answer's content blocks (upstream's `ai-chat` POST): text, and tool calls with their results. */
export const ChatContentOutput = component(
  'AiChatContent',
  v.strictObject({
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
  }),
);

/** `GET /internal/ai-chat/{thread}`: the stored messages as appended. */
export const ChatMessagesOutput = v.strictObject({ messages: v.array(JsonOutput) });

/** `GET /internal/ai-chat`: the caller's threads. */
export const ChatThreadsOutput = v.strictObject({
  threads: v.array(v.strictObject({ id: v.string(), title: v.string(), created_at_millis: MillisOutput, updated_at_millis: MillisOutput })),
});

/** `{}`: upstream's PATCH answer. */
export const EmptyOutput = v.strictObject({});

const Source = v.nullable(v.picklist(['dashboard', 'environment']));

/** The assistant's server settings: `{configured, editable}`, plus the rest for the operator (never the key). */
export const AssistantSettingsOutput = v.union([
  v.strictObject({ configured: v.boolean(), editable: v.literal(false) }),
  v.strictObject({
    configured: v.boolean(),
    editable: v.literal(true),
    base_url: v.nullable(v.string()),
    model: v.nullable(v.string()),
    api_key_set: v.boolean(),
    source: v.strictObject({ base_url: Source, model: Source, api_key: Source }),
  }),
]);

import type OpenAIClient from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import type { AiEndpoint } from './settings.ts';
import { TOOLS } from './tools.ts';
import { parseJsonText } from '../lib/json-text.ts';

/** A tool call of an answer, in upstream's content-block shape (`ai-chat` route's `tool-call`). */
export interface ToolCallBlock {
  type: 'tool-call';
  toolName: string;
  toolCallId: string;
  args: unknown;
  argsText: string;
  result: unknown;
}

/** What the conversation yields as it goes. */
export type AssistantEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; block: ToolCallBlock }
  | { type: 'usage'; tokens: number };

/** A failure of the model endpoint, worded for the owner (no stack, no key). */
export class ModelError extends Error {}

/** The conversation to run. */
export interface Conversation {
  endpoint: AiEndpoint;
  system: string;
  messages: ChatCompletionMessageParam[];
  /** Longest wait for the endpoint's answer or its next chunk, ms. */
  timeoutMs: number;
  maxToolRounds: number;
  runTool: (name: string, argsText: string) => Promise<unknown>;
  /** Aborts the request (the client went away or pressed Stop). */
  signal: AbortSignal;
}

/**
 * Streams one answer from an OpenAI-compatible chat-completions endpoint (the `openai` client:
 * `POST {base}/chat/completions` with `stream: true`), running the tools the model calls and
 * asking again with their results, up to `maxToolRounds` rounds. Yields text as it arrives, each
 * tool call with its result, then the tokens spent (as reported, else estimated at 4 characters a
 * token).
 *
 * @throws ModelError in plain words when the endpoint cannot be reached, refuses, fails or stalls
 *   longer than `timeoutMs`; returns quietly when `signal` aborts.
 */
export async function* converse(c: Conversation): AsyncGenerator<AssistantEvent> {
  const OpenAI = await loadOpenAI();
  const client = new OpenAI({
    baseURL: c.endpoint.baseUrl,
    // Local model servers need no key; the client insists on one, and ignores it then.
    apiKey: c.endpoint.apiKey ?? 'none',
    timeout: c.timeoutMs,
    maxRetries: 1,
  });
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: c.system }, ...c.messages];
  let reported = 0;
  let estimatedChars = JSON.stringify(messages).length;
  for (let round = 0; ; round++) {
    const offerTools = round < c.maxToolRounds;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    c.signal.addEventListener('abort', onAbort, { once: true });
    let stalled = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, c.timeoutMs);
    };
    let text = '';
    const calls = new Map<number, { id: string; name: string; args: string }>();
    try {
      arm();
      const stream = await client.chat.completions.create(
        {
          model: c.endpoint.model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(offerTools ? { tools: TOOLS } : {}),
        },
        { signal: controller.signal },
      );
      for await (const chunk of stream) {
        arm();
        if (chunk.usage) reported += chunk.usage.total_tokens ?? 0;
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) {
          text += delta.content;
          yield { type: 'text', text: delta.content };
        }
        for (const t of delta.tool_calls ?? []) {
          const call = calls.get(t.index) ?? { id: '', name: '', args: '' };
          if (t.id) call.id = t.id;
          if (t.function?.name) call.name += t.function.name;
          if (t.function?.arguments) call.args += t.function.arguments;
          calls.set(t.index, call);
        }
      }
    } catch (error) {
      if (c.signal.aborted) return;
      throw new ModelError(
        stalled
          ? `The model endpoint did not answer within ${Number((c.timeoutMs / 1000).toFixed(1))} seconds.`
          : describeModelError(error, c.endpoint),
      );
    } finally {
      clearTimeout(timer);
      c.signal.removeEventListener('abort', onAbort);
    }
    estimatedChars += text.length;
    // A 200 answer that was no chat-completion stream (an HTML page, JSON of another API, junk)
    // yields no chunk with text or a tool call: say so instead of ending with an empty answer.
    if (calls.size === 0 && text === '')
      throw new ModelError(
        `The model endpoint at ${endpointHost(c.endpoint)} answered, but not with a chat completion (no text and no tool call). Check that the base URL is an OpenAI-compatible endpoint ending in /v1.`,
      );
    if (calls.size === 0) break;
    // The model asked for tools: run them and ask again with their results.
    const toolCalls: ChatCompletionMessageFunctionToolCall[] = [...calls.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, call]) => ({ id: call.id || `call_${round}_${i}`, type: 'function', function: { name: call.name, arguments: call.args } }));
    messages.push({ role: 'assistant', content: text || null, tool_calls: toolCalls });
    for (const call of toolCalls) {
      const result = await c.runTool(call.function.name, call.function.arguments);
      let args: unknown = null;
      try {
        args = parseJsonText(call.function.arguments || '{}');
      } catch {
        /* reported in the result */
      }
      const resultText = JSON.stringify(result);
      estimatedChars += resultText.length;
      messages.push({ role: 'tool', tool_call_id: call.id, content: resultText });
      yield {
        type: 'tool-call',
        block: { type: 'tool-call', toolName: call.function.name, toolCallId: call.id, args, argsText: call.function.arguments, result },
      };
    }
    if (c.signal.aborted) return;
  }
  yield { type: 'usage', tokens: reported > 0 ? reported : Math.ceil(estimatedChars / 4) };
}

/**
 * The `openai` client class, imported on first use: about 11 MB resident that a server whose
 * projects never use the assistant does not pay (docs/benchmarks.md "Start time and memory").
 */
let openai: typeof OpenAIClient | null = null;
async function loadOpenAI(): Promise<typeof OpenAIClient> {
  openai ??= (await import('openai')).default;
  return openai;
}

/** The endpoint's host as configured (`127.0.0.1:11434`), or the whole base URL when it does not parse. */
function endpointHost(endpoint: AiEndpoint): string {
  try {
    return new URL(endpoint.baseUrl).host;
  } catch {
    return endpoint.baseUrl;
  }
}

/** Plain words for a failed model request (status, reachability), naming the endpoint's host. */
export function describeModelError(error: unknown, endpoint: AiEndpoint): string {
  // The client's error classes exist once a request was made (converse loaded the client).
  const OpenAI = openai;
  const host = endpointHost(endpoint);
  if (OpenAI && error instanceof OpenAI.APIConnectionTimeoutError) return `The model endpoint at ${host} did not answer in time.`;
  if (OpenAI && error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return `Could not reach the model endpoint at ${host}${code ? ` (${code})` : ''}. Check the assistant's base URL in the server settings.`;
  }
  if (OpenAI && error instanceof OpenAI.APIError) {
    const detail =
      typeof error.error === 'object' && error.error !== null && typeof (error.error as { message?: unknown }).message === 'string'
        ? (error.error as { message: string }).message.slice(0, 300)
        : '';
    const said = detail ? ` It said: "${detail}"` : '';
    switch (error.status) {
      case 401:
        return `The model endpoint at ${host} refused the API key (401). Check the key in the server settings.${said}`;
      case 403:
        return `The model endpoint at ${host} refused access (403).${said}`;
      case 404:
        return `The model endpoint at ${host} does not know the model "${endpoint.model}", or the base URL is wrong (404).${said}`;
      case 429:
        return `The model endpoint at ${host} is limiting requests or the account is out of credit (429). Try again later.${said}`;
      default:
        if (error.status !== undefined && error.status >= 500)
          return `The model endpoint at ${host} failed (${error.status}). Try again later.${said}`;
        return `The model endpoint at ${host} refused the request (${error.status ?? 'no status'}).${said}`;
    }
  }
  return `The model endpoint at ${host} answered something unexpected.`;
}

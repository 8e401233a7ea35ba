/** One server-sent event of the assistant's answer (`POST /internal/ai-chat/{thread}?stream=true`). */
export type AssistantStreamEvent =
  | { event: 'text'; data: { text: string } }
  | { event: 'tool-call'; data: { toolName: string; toolCallId: string; args: unknown; argsText: string; result: unknown } }
  | { event: 'done'; data: { content: unknown[] } }
  | { event: 'error'; data: { code: string; error: string } };

/**
 * Reads a server-sent-events body (`event:` and `data:` lines, blocks separated by a blank line)
 * and hands each event to `onEvent` as soon as its block is complete.
 */
export async function readAssistantStream(body: ReadableStream<Uint8Array>, onEvent: (e: AssistantStreamEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (final: boolean) => {
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0 || (final && buffer.trim() !== '' && (end = buffer.length) > 0)) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      try {
        onEvent({ event, data: JSON.parse(data.join('\n')) } as AssistantStreamEvent);
      } catch {
        /* a malformed event is skipped */
      }
      if (final && end === buffer.length) break;
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    flush(false);
  }
  buffer += decoder.decode();
  flush(true);
}

/** A piece of an answer's text: prose, or a fenced code snippet (possibly still arriving). */
export type TextPart = { kind: 'prose'; text: string } | { kind: 'code'; lang: string; text: string };

/** Splits markdown text into prose and fenced code blocks (an unclosed fence runs to the end). */
export function splitSnippets(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const fence = /```([\w+-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g;
  let last = 0;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    if (m[0] === '') {
      fence.lastIndex++;
      continue;
    }
    if (m.index > last) parts.push({ kind: 'prose', text: text.slice(last, m.index) });
    parts.push({ kind: 'code', lang: m[1] ?? '', text: m[2]!.replace(/\n$/, '') });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'prose', text: text.slice(last) });
  return parts.filter((p) => p.kind === 'code' || p.text.trim() !== '');
}

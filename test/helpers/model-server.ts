import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

/** One chat-completions request the model server got. */
export interface ModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, for "this secret never appears" checks. */
  raw: string;
  body: {
    model: string;
    messages: Array<{ role: string; content: string | null; tool_calls?: any[]; tool_call_id?: string }>;
    stream?: boolean;
    tools?: any[];
  };
}

/** What to answer next: streamed text, tool calls, an HTTP error, or a stall. */
export type ModelScript =
  | { text: string; pieces?: number; delayMs?: number; usage?: number }
  | { toolCalls: Array<{ name: string; arguments: string }> }
  | { status: number; message: string }
  | { hang: true }
  /** A 200 answer that is no chat-completion stream (e.g. an HTML page at a wrong base URL). */
  | { junk: string };

export interface ModelServer {
  /** Base URL to configure (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ModelRequest[];
  /** Answers to give, in order; once used up, it echoes the last user message. */
  script: ModelScript[];
  /** Resolves when a request arrives whose answer is under way (for Stop tests). */
  close(): Promise<void>;
}

function chunk(res: ServerResponse, id: string, delta: Record<string, unknown>, finish: string | null = null, usage?: number): void {
  const body = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage !== undefined ? { usage: { prompt_tokens: usage - 1, completion_tokens: 1, total_tokens: usage } } : {}),
  };
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

/**
 * A loopback server speaking OpenAI's chat-completions API (`POST /v1/chat/completions` with
 * `stream: true`: `data:` chunks with `delta.content` or `delta.tool_calls`, then `data: [DONE]`;
 * errors as `{error: {message}}` with the status) that records every request, so tests see
 * exactly what Gatehouse sends to a model.
 */
export async function startModelServer(): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  const script: ModelScript[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(parts).toString('utf8');
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const body = JSON.parse(raw) as ModelRequest['body'];
      requests.push({ path: req.url, headers: req.headers, raw, body });
      const lastUser = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const next: ModelScript = script.shift() ?? { text: `You asked: ${lastUser}` };
      if ('status' in next) {
        res
          .writeHead(next.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: next.message, type: 'test' } }));
        return;
      }
      if ('junk' in next) {
        res.writeHead(200, { 'content-type': 'text/html' }).end(next.junk);
        return;
      }
      if ('hang' in next) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return;
      }
      const id = `chatcmpl-${requests.length}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if ('toolCalls' in next) {
        next.toolCalls.forEach((call, index) => {
          // Arguments arrive in two fragments, as real endpoints stream them.
          const half = Math.floor(call.arguments.length / 2);
          chunk(res, id, {
            role: 'assistant',
            tool_calls: [
              {
                index,
                id: `call_${requests.length}_${index}`,
                type: 'function',
                function: { name: call.name, arguments: call.arguments.slice(0, half) },
              },
            ],
          });
          chunk(res, id, { tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] });
        });
        chunk(res, id, {}, 'tool_calls');
      } else {
        const pieces = Math.max(1, next.pieces ?? 3);
        const size = Math.ceil(next.text.length / pieces);
        chunk(res, id, { role: 'assistant', content: '' });
        for (let i = 0; i < next.text.length; i += size) {
          if (res.destroyed) return;
          chunk(res, id, { content: next.text.slice(i, i + size) });
          if (next.delayMs) await new Promise((r) => setTimeout(r, next.delayMs));
        }
        chunk(res, id, {}, 'stop');
        if (body.stream && next.usage !== undefined) {
          res.write(
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'test-model', choices: [], usage: { prompt_tokens: next.usage - 1, completion_tokens: 1, total_tokens: next.usage } })}\n\n`,
          );
        }
      }
      res.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

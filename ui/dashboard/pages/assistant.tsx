import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { routePath } from '../../../sdk/routes.ts';
import type { AdminProject } from '../project.ts';
import { Async, CopyButton, ErrorBox, useApi, useLoad } from '../kit.tsx';
import { readAssistantStream, splitSnippets } from '../assistant-stream.ts';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolName: string; toolCallId: string; args: unknown; argsText: string; result: unknown };
/** A thread message as stored (`GET /internal/ai-chat/{thread}`) and as sent back to the server. */
interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  content: unknown;
  stopped?: boolean;
  error?: string;
}
interface ThreadSummary {
  id: string;
  title: string;
  updated_at_millis: number;
}

const TOOL_LABELS: Record<string, string> = {
  lookup_user_by_email: 'Looked up a user by email',
  explain_sign_in_settings: 'Read the sign-in settings',
  list_recent_failed_sign_ins: 'Listed recent failed sign-ins',
};

function newThreadId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `t-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content))
    return content.filter((b): b is Block => typeof b === 'object' && b !== null && (b.type === 'text' || b.type === 'tool-call'));
  return [];
}

/** Readable text for an answer that is not a stream: a known error's message, a 429, a status. */
async function failureText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: string; message?: string };
    if (res.status === 429)
      return `${body.message ?? 'Too many questions.'} ${res.headers.get('retry-after') ? `Try again in ${res.headers.get('retry-after')} seconds.` : ''}`.trim();
    if (body.error) return body.error;
  } catch {
    /* not JSON */
  }
  return text || `The server answered ${res.status}.`;
}

/** The text of an answer, with fenced code shown as snippets that can be copied. */
function AnswerText(props: { text: string }) {
  let n = 0;
  return (
    <>
      {splitSnippets(props.text).map((part, i) => {
        if (part.kind === 'prose')
          return (
            <p key={i} className="d-chat-prose">
              {part.text.trim()}
            </p>
          );
        n += 1;
        return (
          <div key={i} className="d-chat-snippet">
            <div className="d-row">
              <span className="d-muted">{part.lang || 'snippet'}</span>
              <CopyButton text={part.text} label={`snippet ${n}`} />
            </div>
            <pre className="d-snippet" tabIndex={0} aria-label={`Snippet ${n}${part.lang ? ` (${part.lang})` : ''}`}>
              <code>{part.text}</code>
            </pre>
          </div>
        );
      })}
    </>
  );
}

function Message(props: { message: ChatMessage; streaming?: boolean }) {
  const m = props.message;
  if (m.role === 'tool') return null;
  const blocks = blocksOf(m.content);
  return (
    <article className={`d-chat-msg d-chat-${m.role}`} aria-label={m.role === 'user' ? 'You' : 'Assistant'}>
      <div className="d-chat-who">{m.role === 'user' ? 'You' : 'Assistant'}</div>
      {blocks.map((b, i) =>
        b.type === 'text' ? (
          m.role === 'user' ? (
            <p key={i} className="d-chat-prose">
              {b.text}
            </p>
          ) : (
            <AnswerText key={i} text={b.text} />
          )
        ) : (
          <p key={i} className="d-muted d-chat-tool">
            {TOOL_LABELS[b.toolName] ?? `Used ${b.toolName}`}
          </p>
        ),
      )}
      {props.streaming && blocks.length === 0 && <p className="d-muted">Thinking…</p>}
      {m.stopped && <p className="d-muted">Stopped.</p>}
      {m.error && <p className="d-field-error">{m.error}</p>}
    </article>
  );
}

/**
 * The dashboard assistant: threads on the left, the conversation with streamed
 * answers, a Stop button while an answer arrives, and copyable snippets. Answers come from
 * `POST /internal/ai-chat/{thread}?stream=true` (server-sent events); threads are listed, read
 * and deleted through the other `/internal/ai-chat` routes.
 */
export function AssistantPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const threads = useLoad((): Promise<{ threads: ThreadSummary[] }> => admin('aiChat.list'), [props.project.id]);
  const [threadId, setThreadId] = useState(newThreadId);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [draft, setDraft] = useState('');
  const [running, setRunning] = useState<AbortController | null>(null);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    log.current?.scrollTo?.({ top: log.current.scrollHeight });
  }, [messages]);

  const openThread = async (id: string) => {
    running?.abort();
    setLoadError(null);
    setThreadId(id);
    try {
      const got = await admin('aiChat.get', { params: { thread_id: id } });
      setMessages((got.messages as ChatMessage[]).filter((m) => m && typeof m === 'object'));
    } catch (error) {
      setMessages([]);
      setLoadError(error);
    }
  };
  const newChat = () => {
    running?.abort();
    setThreadId(newThreadId());
    setMessages([]);
    setLoadError(null);
    input.current?.focus();
  };
  const deleteThread = async (id: string) => {
    await admin('aiChat.delete', { params: { thread_id: id }, body: {} }).catch(() => {});
    if (id === threadId) newChat();
    threads.reload();
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const question = draft.trim();
    if (!question || running) return;
    const asked: ChatMessage = { role: 'user', content: [{ type: 'text', text: question }] };
    const history = [...messages, asked];
    const answer: ChatMessage = { role: 'assistant', content: [] as Block[] };
    setMessages([...history, answer]);
    setDraft('');
    const controller = new AbortController();
    setRunning(controller);
    setStatus('The assistant is answering…');
    const update = (change: (a: ChatMessage) => ChatMessage) => setMessages((all) => [...all.slice(0, -1), change(all[all.length - 1]!)]);
    try {
      const res = await api.adminStream(
        props.project.id,
        `${routePath('aiChat.post', { thread_id: threadId })}?stream=true`,
        {
          context_type: 'dashboard',
          messages: history.map((m) => ({ role: m.role, content: m.content })),
        },
        controller.signal,
      );
      if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
        const text = await failureText(res);
        update((a) => ({ ...a, error: text }));
        setStatus(text);
        return;
      }
      await readAssistantStream(res.body, (event) => {
        if (event.event === 'text') {
          update((a) => {
            const blocks = [...blocksOf(a.content)];
            const last = blocks[blocks.length - 1];
            if (last?.type === 'text') blocks[blocks.length - 1] = { type: 'text', text: last.text + event.data.text };
            else blocks.push({ type: 'text', text: event.data.text });
            return { ...a, content: blocks };
          });
        } else if (event.event === 'tool-call') {
          update((a) => ({ ...a, content: [...blocksOf(a.content), { type: 'tool-call', ...event.data }] }));
        } else if (event.event === 'error') {
          update((a) => ({ ...a, error: event.data.error }));
          setStatus(event.data.error);
        } else if (event.event === 'done') {
          setStatus('The answer is complete.');
        }
      });
    } catch (error) {
      if (controller.signal.aborted) {
        update((a) => ({ ...a, stopped: true }));
        setStatus('Stopped.');
      } else {
        const text = 'Could not reach the Gatehouse server. Is it running?';
        update((a) => ({ ...a, error: text }));
        setStatus(text);
      }
    } finally {
      setRunning(null);
      threads.reload();
    }
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <>
      <div className="d-top">
        <h1>Assistant</h1>
        <button type="button" className="d-btn" onClick={newChat}>
          New chat
        </button>
      </div>
      <p className="d-muted">
        Ask about this project's settings, sign-in problems or Gatehouse itself. The assistant reads this project's settings (never keys or
        secrets) and can look things up, but changes nothing.
      </p>
      <div className="d-chat">
        <nav className="d-chat-threads d-card" aria-label="Assistant threads">
          <h2>Threads</h2>
          <Async state={threads} label="Loading threads…">
            {(t) =>
              t.threads.length === 0 ? (
                <p className="d-muted">No threads yet.</p>
              ) : (
                <ul>
                  {t.threads.map((th) => (
                    <li key={th.id}>
                      <button
                        type="button"
                        className="d-link d-chat-thread"
                        aria-current={th.id === threadId ? 'true' : undefined}
                        onClick={() => void openThread(th.id)}
                      >
                        {th.title}
                      </button>
                      <button
                        type="button"
                        className="d-btn d-small"
                        aria-label={`Delete thread ${th.title}`}
                        onClick={() => void deleteThread(th.id)}
                      >
                        Delete
                      </button>
                    </li>
                  ))}
                </ul>
              )
            }
          </Async>
        </nav>
        <section className="d-chat-main d-card" aria-label="Conversation">
          <ErrorBox error={loadError} />
          <div className="d-chat-log" role="log" aria-label="Messages" aria-busy={running ? true : undefined} ref={log} tabIndex={0}>
            {messages.length === 0 ? (
              <p className="d-muted">Try: "How do I turn on magic links?" or "Why can't ada@example.com sign in?"</p>
            ) : (
              messages.map((m, i) => <Message key={i} message={m} streaming={!!running && i === messages.length - 1} />)
            )}
          </div>
          <div className="d-visually-hidden" role="status" aria-live="polite">
            {status}
          </div>
          <form className="d-chat-form" onSubmit={send} aria-label="Ask the assistant">
            <div className="d-field">
              <label htmlFor="d-chat-input">Your question</label>
              <textarea
                id="d-chat-input"
                ref={input}
                rows={3}
                value={draft}
                onKeyDown={onKey}
                onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
                onChange={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
                aria-describedby="d-chat-hint"
              />
              <small id="d-chat-hint" className="d-muted">
                Enter sends; Shift+Enter starts a new line.
              </small>
            </div>
            <div className="d-row">
              {running ? (
                <button type="button" className="d-btn d-danger" onClick={() => running.abort()}>
                  Stop
                </button>
              ) : (
                <button type="submit" className="d-btn d-primary" aria-disabled={!draft.trim() ? true : undefined}>
                  Send
                </button>
              )}
            </div>
          </form>
        </section>
      </div>
    </>
  );
}

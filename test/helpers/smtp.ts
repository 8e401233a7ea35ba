import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** One received email, parsed. */
export interface ReceivedEmail {
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  raw: ParsedMail;
}

/** A real SMTP receiver on a loopback port (smtp-server + mailparser) that keeps every message. */
export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>` — the GATEHOUSE_SMTP_URL to give the server. */
  readonly url: string;
  readonly port: number;
  readonly messages: ReceivedEmail[];
  /** Waits until a message matches (default: addressed to `to`), else throws after `timeoutMs`. */
  waitFor(to: string | ((m: ReceivedEmail) => boolean), timeoutMs?: number): Promise<ReceivedEmail>;
  /** Messages addressed to `to`. */
  to(address: string): ReceivedEmail[];
  /** Stops listening (the port stays reserved for `start()`). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * Starts the receiver. Accepts any sender, recipient and credentials, without TLS, so both
 * the shared GATEHOUSE_SMTP_URL and a project's `standard` config can point at it.
 */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedEmail[] = [];
  const waiters = new Set<() => void>();
  const make = () =>
    new SMTPServer({
      secure: false,
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(_auth, _session, callback) {
        callback(null, { user: 'test' });
      },
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            messages.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: mail.subject ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              text: mail.text ?? '',
              raw: mail,
            });
            for (const w of waiters) w();
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
  let server = make();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    });
  const port = await listen(0);
  const match = (to: string | ((m: ReceivedEmail) => boolean)) =>
    typeof to === 'string' ? (m: ReceivedEmail) => m.to.includes(to.toLowerCase()) : to;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    to: (address) => messages.filter(match(address)),
    waitFor(to, timeoutMs = 10_000) {
      const pred = match(to);
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = messages.find(pred);
          if (m) {
            cleanup();
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no email ${typeof to === 'string' ? `to ${to} ` : ''}within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = make();
      await listen(port);
    },
  };
}

/** The `code` query parameter of the first link in an email's text (magic links, verification, reset). */
export function codeFromEmail(email: ReceivedEmail): string {
  const m = /[?&]code=([0-9a-z]{45})/i.exec(email.text) ?? /[?&]code=([0-9a-z]{45})/i.exec(email.html);
  if (!m) throw new Error(`no code in email "${email.subject}"`);
  return m[1]!;
}

/** A fresh, unique recipient address for one test. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

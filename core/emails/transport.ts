import nodemailer, { type Transporter } from 'nodemailer';
import type { Socket } from 'node:net';
import type { EmailConfig } from '../config/project-config.ts';
import { connectToHost, PRIVATE_ADDRESS_ERROR } from '../lib/outbound.ts';

/**
 * How one email leaves: an SMTP transport and the From header, or `outbox` (kept, never sent).
 * `tenantChosen`: the SMTP host comes from a project's settings (not the operator's
 * GATEHOUSE_SMTP_URL), so production mode refuses private addresses for it.
 */
export type EmailRoute = { kind: 'outbox' } | { kind: 'smtp'; key: string; from: string; options: SmtpOptions; tenantChosen: boolean };

export type SmtpOptions =
  | string
  | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string }; ignoreTLS?: boolean };

/**
 * Chooses the route of a project's email: `standard` → the project's own SMTP server; `shared` →
 * the server-wide `smtpUrl` (GATEHOUSE_SMTP_URL); `shared` with no server SMTP → the built-in
 * outbox (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/interface/crud/ Email).
 */
export function routeFor(config: EmailConfig, smtpUrl: string | null, projectName: string): EmailRoute {
  if (config.type === 'standard') {
    const options = smtpOptionsFor(config);
    return {
      kind: 'smtp',
      key: JSON.stringify(options),
      from: formatFrom(config.senderName, config.senderEmail),
      options,
      tenantChosen: true,
    };
  }
  if (!smtpUrl) return { kind: 'outbox' };
  const url = new URL(smtpUrl);
  const sender = url.searchParams.get('from') ?? `noreply@${url.hostname.includes('.') ? url.hostname : 'gatehouse.local'}`;
  return { kind: 'smtp', key: smtpUrl, from: formatFrom(projectName, sender), options: smtpUrl, tenantChosen: false };
}

/** nodemailer options of a `standard` config: implicit TLS on port 465, STARTTLS when offered otherwise. */
export function smtpOptionsFor(config: { host: string; port: number; username: string; password: string }): SmtpOptions {
  return { host: config.host, port: config.port, secure: config.port === 465, auth: { user: config.username, pass: config.password } };
}

function formatFrom(name: string, email: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}" <${email}>`;
}

const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Opens a nodemailer SMTP transport with short timeouts, so a dead server fails an attempt
 * quickly. With `allowPrivate` false (a tenant-chosen host in production mode) the connection is
 * opened by core/lib/outbound.ts: refused for loopback, link-local and private addresses, after
 * DNS resolution, and made to the checked address.
 */
export function openTransport(options: SmtpOptions, guard: { allowPrivate: boolean } = { allowPrivate: true }): Transporter {
  const timeouts = { connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: 10_000, socketTimeout: 20_000 };
  const getSocket =
    guard.allowPrivate || typeof options === 'string'
      ? undefined
      : (_: unknown, callback: (error: Error | null, socket?: { connection: Socket }) => void) => {
          connectToHost(options.host, options.port, { allowPrivate: false, timeoutMs: CONNECTION_TIMEOUT_MS }).then(
            (connection) => callback(null, { connection }),
            (error: Error) => callback(error),
          );
        };
  const base = typeof options === 'string' ? { url: options, ...timeouts } : { ...options, ...timeouts };
  return nodemailer.createTransport({ ...base, ...(getSocket ? { getSocket } : {}) } as never);
}

/**
 * A sending failure in fixed words: what failed (refused address, DNS, connection, TLS,
 * authentication, a refused sender, recipient or message), with the SMTP reply code when there
 * is one, never the remote side's text (a tenant could otherwise read any internal service's
 * banner through it).
 */
export function describeSmtpError(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: string; responseCode?: number };
  const reply = typeof e.responseCode === 'number' ? ` (SMTP reply ${e.responseCode})` : '';
  switch (e.code) {
    case PRIVATE_ADDRESS_ERROR:
      return 'The SMTP host resolves to a loopback, link-local or private address, which is refused in production mode.';
    case 'EDNS':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The SMTP host name could not be resolved.';
    case 'ECONNREFUSED':
      return 'The SMTP server refused the connection.';
    case 'ETIMEDOUT':
      return 'Timed out. Make sure the SMTP server is running and accepting connections.';
    case 'ETLS':
    case 'EREQUIRETLS':
      return 'The TLS connection to the SMTP server failed.';
    case 'EAUTH':
    case 'ENOAUTH':
      return `The SMTP server refused the username or password${reply}.`;
    case 'EENVELOPE':
      return `The SMTP server refused the sender or a recipient${reply}.`;
    case 'EMESSAGE':
      return `The SMTP server refused the message${reply}.`;
    case 'EPROTOCOL':
    case 'EHLO':
      return 'The server did not answer like an SMTP server.';
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'ECONNRESET':
      return 'The connection to the SMTP server failed.';
    default:
      return 'Sending failed. Make sure the SMTP server is running and accepting connections.';
  }
}

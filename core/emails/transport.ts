import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailConfig } from '../config/project-config.ts';

/** How one email leaves: an SMTP transport and the From header, or `outbox` (kept, never sent). */
export type EmailRoute = { kind: 'outbox' } | { kind: 'smtp'; key: string; from: string; options: SmtpOptions };

export type SmtpOptions = string | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string }; ignoreTLS?: boolean };

/**
 * Chooses the route of a project's email: `standard` → the project's own SMTP server; `shared` →
 * the server-wide `smtpUrl` (GATEHOUSE_SMTP_URL); `shared` with no server SMTP → the built-in
 * outbox (spec §3 Email).
 */
export function routeFor(config: EmailConfig, smtpUrl: string | null, projectName: string): EmailRoute {
  if (config.type === 'standard') {
    const options = smtpOptionsFor(config);
    return { kind: 'smtp', key: JSON.stringify(options), from: formatFrom(config.senderName, config.senderEmail), options };
  }
  if (!smtpUrl) return { kind: 'outbox' };
  const url = new URL(smtpUrl);
  const sender = url.searchParams.get('from') ?? `noreply@${url.hostname.includes('.') ? url.hostname : 'gatehouse.local'}`;
  return { kind: 'smtp', key: smtpUrl, from: formatFrom(projectName, sender), options: smtpUrl };
}

/** nodemailer options of a `standard` config: implicit TLS on port 465, STARTTLS when offered otherwise. */
export function smtpOptionsFor(config: { host: string; port: number; username: string; password: string }): SmtpOptions {
  return { host: config.host, port: config.port, secure: config.port === 465, auth: { user: config.username, pass: config.password } };
}

function formatFrom(name: string, email: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}" <${email}>`;
}

/** Opens a nodemailer SMTP transport with short timeouts, so a dead server fails an attempt quickly. */
export function openTransport(options: SmtpOptions): Transporter {
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
  return nodemailer.createTransport(typeof options === 'string' ? { url: options, ...timeouts } as never : { ...options, ...timeouts });
}

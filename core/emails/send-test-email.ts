import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { describeSmtpError, openTransport, smtpOptionsFor } from './transport.ts';
import { TestEmailOutput } from './outputs.ts';

/**
 * Sends one email right away through the given SMTP settings (not the outbox), so the dashboard
 * can check them before saving. An SMTP failure is reported in the body, not as an error status,
 * in fixed words (describeSmtpError: never the remote server's text). In production mode a host on
 * a loopback, link-local or private address is refused before connecting.
 */
export const sendTestEmail = defineOperation({
  id: 'emails.sendTestEmail',
  method: 'POST',
  path: '/internal/send-test-email',
  summary: 'Send a test email through given SMTP settings.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      recipient_email: v.pipe(v.string(), v.email('must be a valid email')),
      email_config: v.strictObject({
        host: v.pipe(v.string(), v.minLength(1)),
        port: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)),
        username: v.string(),
        password: v.string(),
        sender_email: v.pipe(v.string(), v.email('must be a valid email')),
        sender_name: v.string(),
      }),
    }),
  },
  errors: [],
  output: TestEmailOutput,
  async run(ctx, { body }) {
    const c = body.email_config;
    const transport = openTransport(smtpOptionsFor(c), { allowPrivate: ctx.runtime.environment !== 'production' });
    try {
      await transport.sendMail({
        from: `"${c.sender_name.replace(/["\\\r\n]/g, '')}" <${c.sender_email}>`,
        to: body.recipient_email,
        subject: 'Test email from Gatehouse',
        html: `<p>This is a test email from ${ctx.auth.project.displayName.replace(/[<>&]/g, '')}. Your email settings work.</p>`,
        text: 'This is a test email from Gatehouse. Your email settings work.',
      });
      return { success: true };
    } catch (error) {
      return { success: false, error_message: describeSmtpError(error) };
    } finally {
      transport.close();
    }
  },
});

import { Fragment, useState } from 'react';
import type { Page } from '../api.ts';
import { SourceEditor } from './email-sources.tsx';
import type { AdminProject } from '../project.ts';
import { Async, Empty, ErrorBox, Field, Form, Section, formatTime, useAction, useApi, useLoad, TableScroll } from '../kit.tsx';
import { testEmailKey } from './onboarding.tsx';
import { isValidEmail } from '../validate.ts';

interface WireEmail {
  id: string;
  to: string[];
  subject: string;
  status: string;
  sent_at_millis: number | null;
  created_at_millis: number;
  error: string | null;
  html?: string | null;
}

/** Email server, test email, themes/templates/drafts with a TSX editor and live preview, the sent log and outbox. */
export function EmailsPage(props: { project: AdminProject; onChanged: () => void }) {
  return (
    <>
      <div className="d-top">
        <h1>Emails</h1>
      </div>
      <EmailServer project={props.project} onChanged={props.onChanged} />
      <SourceEditor project={props.project} />
      <SentLog project={props.project} />
    </>
  );
}

function EmailServer(props: { project: AdminProject; onChanged: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const cfg = (props.project.config.email_config ?? { type: 'shared' }) as Record<string, any>;
  const [type, setType] = useState<'shared' | 'standard'>(cfg.type === 'standard' ? 'standard' : 'shared');
  const [host, setHost] = useState<string>(cfg.host ?? '');
  const [port, setPort] = useState<string>(cfg.port !== undefined ? String(cfg.port) : '587');
  const [username, setUsername] = useState<string>(cfg.username ?? '');
  const [password, setPassword] = useState<string>(cfg.password ?? '');
  const [senderName, setSenderName] = useState<string>(cfg.sender_name ?? '');
  const [senderEmail, setSenderEmail] = useState<string>(cfg.sender_email ?? '');
  const [recipient, setRecipient] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const test = useAction();
  const portNumber = Number(port);
  const portProblem = type === 'standard' && (!/^\d+$/.test(port) || portNumber > 65535) ? 'Port must be between 0 and 65535.' : null;
  const standard = () => ({
    host: host.trim(),
    port: portNumber,
    username,
    password,
    sender_name: senderName.trim(),
    sender_email: senderEmail.trim(),
  });
  const missing =
    type === 'standard' && (!host.trim() || !username || !password || !senderName.trim() || !isValidEmail(senderEmail.trim()));
  return (
    <Section
      title="Email server"
      description="Shared: the server's SMTP (GATEHOUSE_SMTP_URL) or, without one, the built-in outbox below. Standard: your own SMTP server."
    >
      <Form
        label="Email server"
        submit="Save email server"
        disabled={missing || !!portProblem}
        onSubmit={async () => {
          await admin('projects.updateCurrent', {
            body: { config: { email_config: type === 'shared' ? { type: 'shared' } : { type: 'standard', ...standard() } } },
          });
          props.onChanged();
        }}
      >
        <div className="d-field">
          <label htmlFor="email-type">Server</label>
          <select id="email-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as 'shared' | 'standard')}>
            <option value="shared">Shared (built-in)</option>
            <option value="standard">Standard (own SMTP)</option>
          </select>
        </div>
        {type === 'standard' && (
          <>
            <Field label="Host" name="smtp-host" value={host} onChange={setHost} error={!host.trim() ? 'Required.' : null} />
            <Field label="Port" name="smtp-port" value={port} onChange={setPort} error={portProblem} />
            <Field label="Username" name="smtp-username" value={username} onChange={setUsername} />
            <Field label="Password" name="smtp-password" type="password" value={password} onChange={setPassword} />
            <Field label="Sender name" name="smtp-sender-name" value={senderName} onChange={setSenderName} />
            <Field
              label="Sender email"
              name="smtp-sender-email"
              type="email"
              value={senderEmail}
              onChange={setSenderEmail}
              error={senderEmail && !isValidEmail(senderEmail.trim()) ? 'Please enter a valid email address.' : null}
            />
          </>
        )}
      </Form>
      <h3>Send a test email</h3>
      <p className="d-muted">
        {type === 'standard'
          ? 'Sent right away through the SMTP settings above (saved or not).'
          : 'The shared server sends only the built-in emails (sign-in codes, verification, password reset, invitations); custom templates, drafts and test emails need your own SMTP server.'}
      </p>
      <div className="d-row" style={{ alignItems: 'flex-end' }}>
        <Field
          label="Recipient"
          name="test-recipient"
          type="email"
          value={recipient}
          onChange={setRecipient}
          error={recipient && !isValidEmail(recipient.trim()) ? 'Please enter a valid email address.' : null}
        />
        <button
          type="button"
          className="d-btn"
          disabled={test.busy || !isValidEmail(recipient.trim()) || (type === 'standard' && (missing || !!portProblem))}
          onClick={() =>
            test.run(async () => {
              setResult(null);
              if (type === 'standard') {
                const r = await admin('emails.sendTestEmail', { body: { recipient_email: recipient.trim(), email_config: standard() } });
                if (!r.success) throw new Error(`The SMTP server refused: ${r.error_message ?? 'unknown error'}`);
                setResult(`Test email sent to ${recipient.trim()}.`);
                rememberTestEmail(props.project.id);
              } else {
                // The shared server only sends the built-in emails (upstream's REQUIRES_CUSTOM_EMAIL_SERVER).
                throw new Error('Test and custom emails need your own SMTP server: choose "Standard (own SMTP)" above.');
              }
            })
          }
        >
          {test.busy ? 'Sending…' : 'Send test email'}
        </button>
      </div>
      {result && (
        <p className="d-ok" role="status">
          {result}
        </p>
      )}
      <ErrorBox error={test.error} />
    </Section>
  );
}

/** Records that a test email went out (the overview's checklist reads it; the server logs none). */
function rememberTestEmail(projectId: string): void {
  try {
    localStorage.setItem(testEmailKey(projectId), String(Date.now()));
  } catch {
    /* storage refused: the step stays open */
  }
}

function SentLog(props: { project: AdminProject }) {
  const api = useApi();
  const emails = useLoad((): Promise<Page<WireEmail>> => api.admin(props.project.id)('emails.list'), [props.project.id]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Section
      title="Sent emails and outbox"
      actions={
        <button type="button" className="d-btn" onClick={emails.reload}>
          Refresh
        </button>
      }
      description='Emails with status "outbox" are kept by the built-in outbox (no SMTP server configured).'
    >
      <Async state={emails} label="Loading emails…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No emails sent yet.</Empty>
          ) : (
            <TableScroll label="Sent emails">
              <table className="d-table d-cards" aria-label="Sent emails">
                <thead>
                  <tr>
                    <th>To</th>
                    <th>Subject</th>
                    <th>Status</th>
                    <th>Created</th>
                    <th>Sent</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((m) => (
                    <Fragment key={m.id}>
                      <tr>
                        <td data-label="To">{m.to.join(', ')}</td>
                        <td data-label="Subject">{m.subject}</td>
                        <td data-label="Status">
                          {m.status}
                          {m.error ? <span className="d-field-error"> — {m.error}</span> : null}
                        </td>
                        <td data-label="Created">{formatTime(m.created_at_millis)}</td>
                        <td data-label="Sent">{formatTime(m.sent_at_millis)}</td>
                        <td>
                          {m.html && (
                            <button type="button" className="d-link" onClick={() => setOpen(open === m.id ? null : m.id)}>
                              {open === m.id ? 'Hide' : 'View'}
                            </button>
                          )}
                        </td>
                      </tr>
                      {open === m.id && m.html && (
                        <tr key={`${m.id}-view`}>
                          <td colSpan={6}>
                            <iframe className="d-preview" title={`Email ${m.subject}`} sandbox="" srcDoc={m.html} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Async>
    </Section>
  );
}

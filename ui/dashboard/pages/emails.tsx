import { Fragment, useEffect, useState } from 'react';
import type { Page } from '../api.ts';
import type { OperationId } from '../../../sdk/routes.ts';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, Empty, ErrorBox, Field, Form, Section, formatTime, useAction, useApi, useLoad, TableScroll } from '../kit.tsx';
import { isValidEmail } from '../validate.ts';

type Kind = 'theme' | 'template' | 'draft';
interface Source { id: string; display_name: string; tsx_source: string; theme_id?: string | null }
interface WireEmail { id: string; to: string[]; subject: string; status: string; sent_at_millis: number | null; created_at_millis: number; error: string | null; html?: string | null }

/** Each kind of email source and the operations that list, create, update and delete it. */
const KINDS = [
  { kind: 'template', title: 'Templates', list: 'emails.listTemplates', create: 'emails.createTemplate', update: 'emails.updateTemplate', remove: 'emails.deleteTemplate' },
  { kind: 'theme', title: 'Themes', list: 'emails.listThemes', create: 'emails.createTheme', update: 'emails.updateTheme', remove: 'emails.deleteTheme' },
  { kind: 'draft', title: 'Drafts', list: 'emails.listDrafts', create: 'emails.createDraft', update: 'emails.updateDraft', remove: 'emails.deleteDraft' },
] as const satisfies readonly { kind: Kind; title: string; list: OperationId; create: OperationId; update: OperationId; remove: OperationId }[];

/** The list inside an email-source answer (`{templates}`, `{themes}`, `{drafts}` or `{items}`). */
export function sourcesOf(answer: Record<string, unknown>): Source[] {
  for (const v of Object.values(answer)) if (Array.isArray(v)) return v as Source[];
  return [];
}

/** Email server, test email, themes/templates/drafts with a TSX editor and live preview, the sent log and outbox. */
export function EmailsPage(props: { project: AdminProject; onChanged: () => void }) {
  return (
    <>
      <div className="d-top"><h1>Emails</h1></div>
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
  const standard = () => ({ host: host.trim(), port: portNumber, username, password, sender_name: senderName.trim(), sender_email: senderEmail.trim() });
  const missing = type === 'standard' && (!host.trim() || !username || !password || !senderName.trim() || !isValidEmail(senderEmail.trim()));
  return (
    <Section title="Email server" description="Shared: the server's SMTP (GATEHOUSE_SMTP_URL) or, without one, the built-in outbox below. Standard: your own SMTP server.">
      <Form label="Email server" submit="Save email server" disabled={missing || !!portProblem} onSubmit={async () => {
        await admin('projects.updateCurrent', { body: { config: { email_config: type === 'shared' ? { type: 'shared' } : { type: 'standard', ...standard() } } } });
        props.onChanged();
      }}>
        <div className="d-field"><label htmlFor="email-type">Server</label>
          <select id="email-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as 'shared' | 'standard')}>
            <option value="shared">Shared (built-in)</option><option value="standard">Standard (own SMTP)</option>
          </select></div>
        {type === 'standard' && <>
          <Field label="Host" name="smtp-host" value={host} onChange={setHost} error={!host.trim() ? 'Required.' : null} />
          <Field label="Port" name="smtp-port" value={port} onChange={setPort} error={portProblem} />
          <Field label="Username" name="smtp-username" value={username} onChange={setUsername} />
          <Field label="Password" name="smtp-password" type="password" value={password} onChange={setPassword} />
          <Field label="Sender name" name="smtp-sender-name" value={senderName} onChange={setSenderName} />
          <Field label="Sender email" name="smtp-sender-email" type="email" value={senderEmail} onChange={setSenderEmail} error={senderEmail && !isValidEmail(senderEmail.trim()) ? 'Please enter a valid email address.' : null} />
        </>}
      </Form>
      <h3>Send a test email</h3>
      <p className="d-muted">{type === 'standard' ? 'Sent right away through the SMTP settings above (saved or not).' : 'The shared server sends only the built-in emails (sign-in codes, verification, password reset, invitations); custom templates, drafts and test emails need your own SMTP server.'}</p>
      <div className="d-row" style={{ alignItems: 'flex-end' }}>
        <Field label="Recipient" name="test-recipient" type="email" value={recipient} onChange={setRecipient} error={recipient && !isValidEmail(recipient.trim()) ? 'Please enter a valid email address.' : null} />
        <button type="button" className="d-btn" disabled={test.busy || !isValidEmail(recipient.trim()) || (type === 'standard' && (missing || !!portProblem))} onClick={() => test.run(async () => {
          setResult(null);
          if (type === 'standard') {
            const r = await admin('emails.sendTestEmail', { body: { recipient_email: recipient.trim(), email_config: standard() } });
            if (!r.success) throw new Error(`The SMTP server refused: ${r.error_message ?? 'unknown error'}`);
            setResult(`Test email sent to ${recipient.trim()}.`);
          } else {
            // The shared server only sends the built-in emails (upstream's REQUIRES_CUSTOM_EMAIL_SERVER).
            throw new Error('Test and custom emails need your own SMTP server: choose "Standard (own SMTP)" above.');
          }
        })}>{test.busy ? 'Sending…' : 'Send test email'}</button>
      </div>
      {result && <p className="d-ok" role="status">{result}</p>}
      <ErrorBox error={test.error} />
    </Section>
  );
}

function SourceEditor(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const [kind, setKind] = useState<Kind>('template');
  const k = KINDS.find((x) => x.kind === kind)!;
  const call = admin as (id: OperationId, input?: object) => Promise<any>;
  const list = useLoad(() => call(k.list).then(sourcesOf), [props.project.id, kind]);
  const [selected, setSelected] = useState<string | null>(null);
  const [source, setSource] = useState('');
  const [preview, setPreview] = useState<{ html: string; subject?: string | null } | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [newName, setNewName] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const save = useAction();
  const current = list.data?.find((s) => s.id === selected) ?? null;
  useEffect(() => {
    if (!list.data) return;
    const first = list.data.find((s) => s.id === selected) ?? list.data[0] ?? null;
    setSelected(first?.id ?? null);
    setSource(first?.tsx_source ?? '');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data]);
  // Live preview, debounced: render the editor's source with the server's sandbox.
  useEffect(() => {
    if (!source) { setPreview(null); return; }
    let stale = false;
    const t = setTimeout(() => {
      const body = kind === 'theme' ? { theme_tsx_source: source } : { template_tsx_source: source, ...(current?.theme_id !== undefined ? { theme_id: current.theme_id } : {}) };
      admin('emails.renderEmail', { body }).then(
        (r) => { if (!stale) { setPreview(r); setPreviewError(null); } },
        (e: unknown) => { if (!stale) setPreviewError(e); },
      );
    }, 300);
    return () => { stale = true; clearTimeout(t); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, kind]);
  return (
    <Section title="Themes, templates and drafts" actions={
      <div className="d-row" role="tablist">{KINDS.map((x) => <button key={x.kind} type="button" role="tab" aria-selected={x.kind === kind} className={x.kind === kind ? 'd-btn d-primary' : 'd-btn'} onClick={() => { setKind(x.kind); setSelected(null); }}>{x.title}</button>)}</div>
    }>
      <Async state={list} label={`Loading ${k.title.toLowerCase()}…`}>
        {(items) => (
          <>
            {items.length === 0 ? <Empty>No {k.title.toLowerCase()} yet.</Empty> : (
              <div className="d-field" style={{ maxWidth: 420 }}>
                <label htmlFor="source-select">{k.title.slice(0, -1)}</label>
                <select id="source-select" value={selected ?? ''} onChange={(e) => { const id = (e.target as HTMLSelectElement).value; setSelected(id); setSource(items.find((s) => s.id === id)?.tsx_source ?? ''); }}>
                  {items.map((s) => <option key={s.id} value={s.id}>{s.display_name}</option>)}
                </select>
              </div>
            )}
            {current && (
              <div className="d-grid" style={{ marginTop: 8 }}>
                <div>
                  <label htmlFor="tsx-editor">TSX source</label>
                  <textarea id="tsx-editor" className="d-code" spellCheck={false} value={source} onInput={(e) => setSource((e.target as HTMLTextAreaElement).value)} />
                  <div className="d-row">
                    <button type="button" className="d-btn d-primary" disabled={save.busy || source === current.tsx_source} onClick={() => save.run(async () => { await call(k.update, { params: { id: current.id }, body: { tsx_source: source } }); list.reload(); })}>{save.busy ? 'Saving…' : 'Save'}</button>
                    <button type="button" className="d-btn" disabled={source === current.tsx_source} onClick={() => setSource(current.tsx_source)}>Discard changes</button>
                    {kind === 'draft' && <ConfirmButton label="Send to all users" danger={false} question={`Send ${current.display_name} (as saved) to every user of ${props.project.display_name}?`} confirmLabel="Yes, send it" onConfirm={async () => {
                      await admin('emails.sendEmail', { body: { all_users: true, draft_id: current.id } });
                      setSent(`${current.display_name} was queued for every user; see the sent emails below.`);
                    }} />}
                    <ConfirmButton label="Delete" question={`Delete ${current.display_name}?`} onConfirm={async () => { await call(k.remove, { params: { id: current.id }, body: {} }); setSelected(null); list.reload(); }} />
                  </div>
                  <ErrorBox error={save.error} />
                  {sent && <p className="d-ok" role="status">{sent}</p>}
                </div>
                <div>
                  <div className="d-muted">Preview{preview?.subject ? <> — subject: <strong data-testid="preview-subject">{preview.subject}</strong></> : null}</div>
                  {previewError ? <ErrorBox error={previewError} /> : null}
                  {preview ? <iframe className="d-preview" title="Email preview" sandbox="" srcDoc={preview.html} /> : !previewError && <div className="d-loading">Rendering…</div>}
                </div>
              </div>
            )}
          </>
        )}
      </Async>
      <Form label={`Create a ${kind}`} submit={`Create ${kind}`} disabled={!newName.trim()} onSubmit={async () => {
        const created: { id: string } = await call(k.create, { body: { display_name: newName.trim() } });
        setNewName('');
        setSelected(created.id);
        list.reload();
      }}>
        <Field label={`New ${kind} name`} name="new-source-name" value={newName} onChange={setNewName} />
      </Form>
    </Section>
  );
}

function SentLog(props: { project: AdminProject }) {
  const api = useApi();
  const emails = useLoad((): Promise<Page<WireEmail>> => api.admin(props.project.id)('emails.list'), [props.project.id]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Section title="Sent emails and outbox" actions={<button type="button" className="d-btn" onClick={emails.reload}>Refresh</button>} description='Emails with status "outbox" are kept by the built-in outbox (no SMTP server configured).'>
      <Async state={emails} label="Loading emails…">
        {(p) => p.items.length === 0 ? <Empty>No emails sent yet.</Empty> : (
          <TableScroll label="Sent emails"><table className="d-table" aria-label="Sent emails"><thead><tr><th>To</th><th>Subject</th><th>Status</th><th>Created</th><th>Sent</th><th /></tr></thead>
            <tbody>{p.items.map((m) => (
              <Fragment key={m.id}>
                <tr><td>{m.to.join(', ')}</td><td>{m.subject}</td><td>{m.status}{m.error ? <span className="d-field-error"> — {m.error}</span> : null}</td><td>{formatTime(m.created_at_millis)}</td><td>{formatTime(m.sent_at_millis)}</td>
                  <td>{m.html && <button type="button" className="d-link" onClick={() => setOpen(open === m.id ? null : m.id)}>{open === m.id ? 'Hide' : 'View'}</button>}</td></tr>
                {open === m.id && m.html && <tr key={`${m.id}-view`}><td colSpan={6}><iframe className="d-preview" title={`Email ${m.subject}`} sandbox="" srcDoc={m.html} /></td></tr>}
              </Fragment>
            ))}</tbody></table></TableScroll>
        )}
      </Async>
    </Section>
  );
}

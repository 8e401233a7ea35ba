import { useEffect, useState } from 'react';
import { Icon } from '../../icon.tsx';
import { Plus } from 'lucide';
import { DialogButton } from '../controls/dialog.tsx';
import type { OperationId } from '../../../sdk/routes.ts';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, Empty, ErrorBox, Field, Form, Section, useAction, useApi, useLoad } from '../kit.tsx';

type Kind = 'theme' | 'template' | 'draft';
/** A source as its list returns it: themes come without `tsx_source` (fetched one by one). */
interface Source {
  id: string;
  display_name: string;
  tsx_source?: string;
  theme_id?: string | null;
}

/**
 * Each kind of email source and the operations that list, read, create, update and delete it.
 * `ownServer`: changing it needs the project's own SMTP server (core/emails/source-crud.ts
 * `requireCustomEmailServer`, upstream's REQUIRES_CUSTOM_EMAIL_SERVER); only templates do.
 */
const KINDS = [
  {
    kind: 'template',
    title: 'Templates',
    list: 'emails.listTemplates',
    get: 'emails.getTemplate',
    create: 'emails.createTemplate',
    update: 'emails.updateTemplate',
    remove: 'emails.deleteTemplate',
    ownServer: true,
  },
  {
    kind: 'theme',
    title: 'Themes',
    list: 'emails.listThemes',
    get: 'emails.getTheme',
    create: 'emails.createTheme',
    update: 'emails.updateTheme',
    remove: 'emails.deleteTheme',
    ownServer: false,
  },
  {
    kind: 'draft',
    title: 'Drafts',
    list: 'emails.listDrafts',
    get: 'emails.getDraft',
    create: 'emails.createDraft',
    update: 'emails.updateDraft',
    remove: 'emails.deleteDraft',
    ownServer: false,
  },
] as const satisfies readonly {
  kind: Kind;
  title: string;
  list: OperationId;
  get: OperationId;
  create: OperationId;
  update: OperationId;
  remove: OperationId;
  ownServer: boolean;
}[];

const OWN_SERVER_REASON =
  'Needs your own SMTP server: choose "Standard (own SMTP)" under Email server above. Your edits here are kept until then.';

/** The list inside an email-source answer (`{templates}`, `{themes}`, `{drafts}` or `{items}`). */
export function sourcesOf(answer: Record<string, unknown>): Source[] {
  for (const v of Object.values(answer)) if (Array.isArray(v)) return v as Source[];
  return [];
}

/**
 * Themes, templates and drafts with a TSX editor and a live preview. Unsaved edits are kept per
 * source (switching source or tab, a failed save or a reload of the list loses none); what needs
 * the project's own SMTP server says so before anything is tried.
 */
export function SourceEditor(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const [kind, setKind] = useState<Kind>('template');
  const k = KINDS.find((x) => x.kind === kind)!;
  const call = admin as (id: OperationId, input?: object) => Promise<any>;
  const shared = (props.project.config.email_config?.type ?? 'shared') === 'shared';
  const locked = shared && k.ownServer;
  const list = useLoad(() => call(k.list).then(sourcesOf), [props.project.id, kind]);
  const [selectedByKind, setSelectedByKind] = useState<Partial<Record<Kind, string>>>({});
  /** Unsaved edits and sources fetched one by one, keyed `kind:id`. */
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [fetched, setFetched] = useState<Record<string, string>>({});
  const [fetchError, setFetchError] = useState<unknown>(null);
  const [preview, setPreview] = useState<{ html: string; subject?: string | null } | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [newName, setNewName] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const save = useAction();
  const items = list.data ?? [];
  const current = items.find((s) => s.id === selectedByKind[kind]) ?? items[0] ?? null;
  const key = current ? `${kind}:${current.id}` : '';
  const savedSource = current ? (fetched[key] ?? current.tsx_source) : undefined;
  const source = current ? (edits[key] ?? savedSource) : undefined;
  const dirty = current !== null && key in edits && edits[key] !== savedSource;
  const select = (id: string) => setSelectedByKind((m) => ({ ...m, [kind]: id }));
  const edit = (text: string) => setEdits((m) => ({ ...m, [key]: text }));
  const forget = (k2: string) =>
    setEdits((m) => {
      const { [k2]: _, ...rest } = m;
      return rest;
    });

  // Themes are listed without their source: read the selected one.
  useEffect(() => {
    if (!current || current.tsx_source !== undefined || key in fetched) return;
    let stale = false;
    setFetchError(null);
    call(k.get, { params: { id: current.id } }).then(
      (s: { tsx_source: string }) => {
        if (!stale) setFetched((m) => ({ ...m, [key]: s.tsx_source }));
      },
      (e: unknown) => {
        if (!stale) setFetchError(e);
      },
    );
    return () => {
      stale = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, current?.tsx_source]);

  // Live preview, debounced: render the editor's source with the server's sandbox.
  useEffect(() => {
    setPreview(null);
    setPreviewError(null);
    if (!source) return;
    let stale = false;
    const t = setTimeout(() => {
      const body =
        kind === 'theme'
          ? { theme_tsx_source: source }
          : { template_tsx_source: source, ...(current?.theme_id !== undefined ? { theme_id: current.theme_id } : {}) };
      admin('emails.renderEmail', { body }).then(
        (r) => {
          if (!stale) setPreview(r);
        },
        (e: unknown) => {
          if (!stale) setPreviewError(e);
        },
      );
    }, 300);
    return () => {
      stale = true;
      clearTimeout(t);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, kind]);

  return (
    <Section
      title="Themes, templates and drafts"
      actions={
        <div className="d-row">
          <div className="d-row" role="tablist">
            {KINDS.map((x) => (
              <button
                key={x.kind}
                type="button"
                role="tab"
                aria-selected={x.kind === kind}
                className={x.kind === kind ? 'd-btn d-primary' : 'd-btn'}
                onClick={() => {
                  setKind(x.kind);
                  setSent(null);
                }}
              >
                {x.title}
              </button>
            ))}
          </div>
          <DialogButton label={`New ${kind}`} title={`Create a ${kind}`} icon={<Icon icon={Plus} />}>
            {(close) => (
              <Form
                label={`Create a ${kind}`}
                submit={`Create ${kind}`}
                success={`Created the ${kind}`}
                onDone={close}
                disabled={!newName.trim() || locked}
                disabledReason={locked ? OWN_SERVER_REASON : undefined}
                onSubmit={async () => {
                  const created: { id: string } = await call(k.create, { body: { display_name: newName.trim() } });
                  setNewName('');
                  select(created.id);
                  list.reload();
                }}
              >
                <Field label={`New ${kind} name`} name="new-source-name" value={newName} onChange={setNewName} />
              </Form>
            )}
          </DialogButton>
        </div>
      }
    >
      {locked && (
        <p className="d-muted" data-testid="own-server-notice">
          The shared email server sends the built-in templates as they are. Creating, changing or deleting templates needs your own SMTP
          server (Email server → Standard); you can still edit and preview here, and your edits are kept until you save them.
        </p>
      )}
      {kind === 'draft' && shared && (
        <p className="d-muted">Drafts can be written and previewed here; sending them needs your own SMTP server.</p>
      )}
      <Async state={list} label={`Loading ${k.title.toLowerCase()}…`}>
        {(all) => (
          <>
            {all.length === 0 ? (
              <Empty>No {k.title.toLowerCase()} yet.</Empty>
            ) : (
              <div className="d-field" style={{ maxWidth: 420 }}>
                <label htmlFor="source-select">{k.title.slice(0, -1)}</label>
                <select id="source-select" value={current?.id ?? ''} onChange={(e) => select((e.target as HTMLSelectElement).value)}>
                  {all.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.display_name}
                      {`${kind}:${s.id}` in edits ? ' (unsaved)' : ''}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {current && (
              <div className="d-grid" style={{ marginTop: 8 }}>
                <div>
                  <label htmlFor="tsx-editor">TSX source</label>
                  {source === undefined && !fetchError ? <div className="d-loading">Loading the source…</div> : null}
                  <ErrorBox error={fetchError} />
                  <textarea
                    id="tsx-editor"
                    className="d-code"
                    spellCheck={false}
                    value={source ?? ''}
                    disabled={source === undefined}
                    onInput={(e) => edit((e.target as HTMLTextAreaElement).value)}
                    onChange={(e) => edit((e.target as HTMLTextAreaElement).value)}
                  />
                  <div className="d-row">
                    <button
                      type="button"
                      className="d-btn d-primary"
                      disabled={save.busy || !dirty || locked}
                      aria-describedby={locked ? 'own-server-why' : undefined}
                      onClick={() =>
                        save.run(async () => {
                          const text = source!;
                          await call(k.update, { params: { id: current.id }, body: { tsx_source: text } });
                          setFetched((m) => ({ ...m, [key]: text }));
                          forget(key);
                          list.reload();
                        })
                      }
                    >
                      {save.busy ? 'Saving…' : 'Save'}
                    </button>
                    <button type="button" className="d-btn" disabled={!dirty} onClick={() => forget(key)}>
                      Discard changes
                    </button>
                    {kind === 'draft' && (
                      <ConfirmButton
                        label="Send to all users"
                        danger={false}
                        disabled={shared}
                        question={`Send ${current.display_name} (as saved) to every user of ${props.project.display_name}?`}
                        confirmLabel="Yes, send it"
                        onConfirm={async () => {
                          await admin('emails.sendEmail', { body: { all_users: true, draft_id: current.id } });
                          setSent(`${current.display_name} was queued for every user; see the sent emails below.`);
                        }}
                      />
                    )}
                    <ConfirmButton
                      label="Delete"
                      disabled={locked}
                      question={`Delete ${current.display_name}?`}
                      onConfirm={async () => {
                        await call(k.remove, { params: { id: current.id }, body: {} });
                        forget(key);
                        list.reload();
                      }}
                    />
                  </div>
                  {dirty && (
                    <p className="d-muted" role="status">
                      Unsaved changes.
                    </p>
                  )}
                  {locked && (
                    <small id="own-server-why" className="d-muted">
                      {OWN_SERVER_REASON}
                    </small>
                  )}
                  <ErrorBox error={save.error} />
                  {sent && (
                    <p className="d-ok" role="status">
                      {sent}
                    </p>
                  )}
                </div>
                <div>
                  <div className="d-muted">
                    Preview
                    {preview?.subject ? (
                      <>
                        {' '}
                        — subject: <strong data-testid="preview-subject">{preview.subject}</strong>
                      </>
                    ) : null}
                  </div>
                  {previewError ? <ErrorBox error={previewError} /> : null}
                  {preview ? (
                    <iframe className="d-preview" title="Email preview" sandbox="" srcDoc={preview.html} />
                  ) : previewError ? null : source === '' ? (
                    <Empty>Nothing to preview: the source is empty.</Empty>
                  ) : (
                    <div className="d-loading">Rendering…</div>
                  )}
                </div>
              </div>
            )}
          </>
        )}
      </Async>
    </Section>
  );
}

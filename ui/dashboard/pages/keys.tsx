import { useState } from 'react';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import {
  Async,
  ConfirmButton,
  CopyButton,
  Empty,
  Field,
  Form,
  Section,
  Toggle,
  formatTime,
  useApi,
  useLoad,
  TableScroll,
} from '../kit.tsx';

interface WireKey {
  id: string;
  description: string;
  created_at_millis: number;
  expires_at_millis: number | null;
  /** Present only once revoked (upstream omits it for active keys). */
  manually_revoked_at_millis?: number | null;
  publishable_client_key?: string | { last_four: string };
  secret_server_key?: string | { last_four: string };
  super_secret_admin_key?: string | { last_four: string };
}

const lastFour = (v: WireKey['publishable_client_key']) =>
  v === undefined ? '—' : typeof v === 'string' ? `…${v.slice(-4)}` : `…${v.last_four}`;

/** The ready-to-paste environment variables for an app (Stack Auth names and Gatehouse's base URL). */
export function envSnippet(origin: string, projectId: string, key: WireKey): string {
  const lines = [`NEXT_PUBLIC_STACK_API_URL=${origin}`, `NEXT_PUBLIC_STACK_PROJECT_ID=${projectId}`];
  if (typeof key.publishable_client_key === 'string') lines.push(`NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=${key.publishable_client_key}`);
  if (typeof key.secret_server_key === 'string') lines.push(`STACK_SECRET_SERVER_KEY=${key.secret_server_key}`);
  if (typeof key.super_secret_admin_key === 'string') lines.push(`STACK_SUPER_SECRET_ADMIN_KEY=${key.super_secret_admin_key}`);
  return lines.join('\n');
}

/** Internal API keys: create (values shown once), list, revoke (`/internal/api-keys`). */
export function KeysPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const keys = useLoad((): Promise<Page<WireKey>> => admin('internalApiKeys.list'), [props.project.id]);
  const [description, setDescription] = useState('');
  const [client, setClient] = useState(true);
  const [server, setServer] = useState(true);
  const [adminKey, setAdminKey] = useState(false);
  const [created, setCreated] = useState<WireKey | null>(null);
  const origin = location.origin + api.prefix;
  return (
    <>
      <div className="d-top">
        <h1>Project keys</h1>
      </div>
      {created && (
        <Section title="New keys — copy them now" description="These values are shown only once. Store them in your app's environment.">
          <dl>
            {(
              [
                ['Publishable client key', created.publishable_client_key],
                ['Secret server key', created.secret_server_key],
                ['Super secret admin key', created.super_secret_admin_key],
              ] as const
            ).map(
              ([label, v]) =>
                typeof v === 'string' && (
                  <div key={label} className="d-row" style={{ marginBottom: 6 }}>
                    <dt style={{ minWidth: 'min(190px, 100%)' }}>{label}</dt>
                    <dd style={{ margin: 0, minWidth: 0, flex: '1 1 240px' }} className="d-row">
                      <code className="d-secret" data-testid={`new-key-${label}`}>
                        {v}
                      </code>
                      <CopyButton text={v} label={label} />
                    </dd>
                  </div>
                ),
            )}
          </dl>
          <h3>Environment variables</h3>
          <pre className="d-snippet" data-testid="env-snippet" tabIndex={0} aria-label="Environment variables">
            {envSnippet(origin, props.project.id, created)}
          </pre>
          <div className="d-row">
            <CopyButton text={envSnippet(origin, props.project.id, created)} label="environment variables" />
            <button type="button" className="d-btn" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </Section>
      )}
      <Section
        title="Keys"
        actions={
          <DialogButton label="New keys" title="Create keys" icon={<Icon icon={Plus} />}>
            {(close) => (
              <Form
                label="Create keys"
                submit="Create keys"
                busyLabel="Creating…"
                success="Keys created"
                onDone={close}
                onSubmit={async () => {
                  if (!client && !server && !adminKey) throw new Error('Choose at least one key.');
                  const key = await admin('internalApiKeys.create', {
                    body: {
                      description: description.trim() || 'Dashboard key',
                      expires_at_millis: null,
                      has_publishable_client_key: client,
                      has_secret_server_key: server,
                      has_super_secret_admin_key: adminKey,
                    },
                  });
                  setCreated(key);
                  setDescription('');
                  keys.reload();
                }}
              >
                <Field
                  label="Description"
                  name="key-description"
                  value={description}
                  onChange={setDescription}
                  placeholder="e.g. Production web app"
                />
                <Toggle label="Publishable client key" checked={client} onChange={setClient} />
                <Toggle label="Secret server key" checked={server} onChange={setServer} />
                <Toggle label="Super secret admin key" checked={adminKey} onChange={setAdminKey} />
              </Form>
            )}
          </DialogButton>
        }
      >
        <Async state={keys} label="Loading keys…">
          {(page) =>
            page.items.length === 0 ? (
              <Empty>No keys yet. Use New keys to create a set and connect an app.</Empty>
            ) : (
              <TableScroll label="Keys">
                <table className="d-table d-cards" aria-label="Keys">
                  <thead>
                    <tr>
                      <th>Description</th>
                      <th>Client</th>
                      <th>Server</th>
                      <th>Admin</th>
                      <th>Created</th>
                      <th>Status</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((k) => {
                      const revoked = k.manually_revoked_at_millis != null;
                      const expired = k.expires_at_millis !== null && k.expires_at_millis < Date.now();
                      return (
                        <tr key={k.id}>
                          <td data-label="Description">{k.description}</td>
                          <td data-label="Client">{lastFour(k.publishable_client_key)}</td>
                          <td data-label="Server">{lastFour(k.secret_server_key)}</td>
                          <td data-label="Admin">{lastFour(k.super_secret_admin_key)}</td>
                          <td data-label="Created">{formatTime(k.created_at_millis)}</td>
                          <td data-label="Status">{revoked ? 'Revoked' : expired ? 'Expired' : 'Active'}</td>
                          <td>
                            {!revoked && (
                              <ConfirmButton
                                label="Revoke"
                                question="Apps using these keys stop working."
                                onConfirm={async () => {
                                  await admin('internalApiKeys.update', { params: { api_key_id: k.id }, body: { revoked: true } });
                                  keys.reload();
                                }}
                              />
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      </Section>
    </>
  );
}

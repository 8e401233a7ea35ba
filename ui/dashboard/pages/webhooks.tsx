import { useState } from 'react';
import type { Page } from '../api.ts';
import type { OperationCallInput } from '../../../sdk/routes.ts';
import type { OutWebhookDelivery, OutWebhookEndpoint } from '../../../sdk/generated/routes.ts';
import type { AdminProject } from '../project.ts';
import { SUBSCRIBABLE_EVENT_TYPES as EVENT_TYPES } from '../../../core/webhook-events/types.ts';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import {
  Async,
  ConfirmButton,
  CopyButton,
  Empty,
  ErrorBox,
  Field,
  Form,
  Section,
  Toggle,
  formatTime,
  useAction,
  useApi,
  useLoad,
} from '../kit.tsx';

/** The wire shapes, generated from the operations' output schemas (sdk/generated/routes.ts). */
type WireEndpoint = OutWebhookEndpoint;
type WireDelivery = OutWebhookDelivery;

/**
 * Webhooks: endpoints (URL, event filter, on/off), the signing secret shown on create and on
 * rotation, a test event, and each endpoint's delivery log with retry (`/internal/webhook-endpoints`).
 */
export function WebhooksPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const endpoints = useLoad((): Promise<Page<WireEndpoint>> => admin('webhooks.listEndpoints'), [props.project.id]);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <div className="d-top">
        <h1>Webhooks</h1>
      </div>
      <p>
        Gatehouse POSTs signed JSON events (<code>{'{ type, data }'}</code>) to your endpoints, signed like Svix / Standard Webhooks (
        <code>svix-*</code> and <code>webhook-*</code> headers), retrying failures for about 17 hours.
      </p>
      {secret && (
        <Section
          title="Signing secret — copy it now"
          description={`Verify deliveries to ${secret.url} with this secret. It is shown only once; rotate it to get a new one.`}
        >
          <div className="d-row">
            <code className="d-secret" data-testid="webhook-secret">
              {secret.secret}
            </code>
            <CopyButton text={secret.secret} label="signing secret" />
            <button type="button" className="d-btn" onClick={() => setSecret(null)}>
              Done
            </button>
          </div>
        </Section>
      )}
      <Section
        title="Endpoints"
        actions={
          <DialogButton label="New endpoint" title="Add an endpoint" icon={<Icon icon={Plus} />}>
            {(close) => (
              <Form
                label="Add an endpoint"
                submit="Add endpoint"
                busyLabel="Adding…"
                success="Endpoint added"
                onDone={close}
                onSubmit={async () => {
                  if (!/^https?:\/\//i.test(url.trim()))
                    throw new Error('Enter the full URL of your endpoint, starting with https:// (or http://).');
                  if (!all && types.length === 0) throw new Error('Choose at least one event, or send all events.');
                  const created = await admin('webhooks.createEndpoint', {
                    body: {
                      url: url.trim(),
                      description: description.trim(),
                      event_types: all ? null : (types as OperationCallInput<'webhooks.createEndpoint'>['body']['event_types']),
                    },
                  });
                  setSecret({ url: created.url, secret: created.secret! });
                  setUrl('');
                  setDescription('');
                  endpoints.reload();
                }}
              >
                <Field
                  label="Endpoint URL"
                  name="webhook-url"
                  value={url}
                  onChange={setUrl}
                  placeholder="https://example.com/api/webhooks/gatehouse"
                  required
                />
                <Field
                  label="Description"
                  name="webhook-description"
                  value={description}
                  onChange={setDescription}
                  placeholder="e.g. Sync users to our database"
                />
                <Toggle label="Send all events" checked={all} onChange={setAll} />
                {!all && (
                  <fieldset className="d-field">
                    <legend>Events</legend>
                    {EVENT_TYPES.map((t) => (
                      <label key={t} className="d-toggle">
                        <input
                          type="checkbox"
                          checked={types.includes(t)}
                          onChange={(e) => setTypes((cur) => (e.currentTarget.checked ? [...cur, t] : cur.filter((x) => x !== t)))}
                        />{' '}
                        <code>{t}</code>
                      </label>
                    ))}
                  </fieldset>
                )}
              </Form>
            )}
          </DialogButton>
        }
      >
        <Async state={endpoints} label="Loading endpoints…">
          {(page) =>
            page.items.length === 0 ? (
              <Empty>No endpoints yet. Use New endpoint to receive events at your server.</Empty>
            ) : (
              <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {page.items.map((e) => (
                  <li key={e.id} className="d-card">
                    <EndpointRow
                      endpoint={e}
                      project={props.project}
                      expanded={open === e.id}
                      onToggle={() => setOpen(open === e.id ? null : e.id)}
                      onChanged={endpoints.reload}
                      onSecret={(s) => setSecret({ url: e.url, secret: s })}
                    />
                  </li>
                ))}
              </ul>
            )
          }
        </Async>
      </Section>
    </>
  );
}

function EndpointRow(props: {
  endpoint: WireEndpoint;
  project: AdminProject;
  expanded: boolean;
  onToggle: () => void;
  onChanged: () => void;
  onSecret: (secret: string) => void;
}) {
  const admin = useApi().admin(props.project.id);
  const e = props.endpoint;
  const test = useAction();
  const [testResult, setTestResult] = useState<string | null>(null);
  return (
    <>
      <div className="d-row" style={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <div>
          <strong style={{ overflowWrap: 'anywhere' }}>{e.url}</strong>
          <div className="d-muted">
            {e.description || 'No description'} · {e.event_types === null ? 'all events' : e.event_types.join(', ')} · added{' '}
            {formatTime(e.created_at_millis)}
          </div>
          <div>
            Status: <strong>{e.enabled ? 'Enabled' : 'Disabled'}</strong>
            {e.disabled_reason && <> — {e.disabled_reason}</>}
          </div>
        </div>
        <div className="d-row" style={{ flexWrap: 'wrap' }}>
          <button
            type="button"
            className="d-btn"
            disabled={test.busy}
            onClick={() =>
              void test.run(async () => {
                setTestResult(null);
                const r = await admin('webhooks.sendTest', { body: { endpoint_id: e.id } });
                setTestResult(r.success ? 'Test event delivered.' : (r.error_message ?? 'Test event not delivered.'));
                props.onChanged();
              })
            }
          >
            {test.busy ? 'Sending…' : 'Send test event'}
          </button>
          <button type="button" className="d-btn" aria-expanded={props.expanded} onClick={props.onToggle}>
            {props.expanded ? 'Hide deliveries' : 'Deliveries'}
          </button>
          <button
            type="button"
            className="d-btn"
            onClick={async () => {
              await admin('webhooks.updateEndpoint', { params: { endpoint_id: e.id }, body: { enabled: !e.enabled } });
              props.onChanged();
            }}
          >
            {e.enabled ? 'Disable' : 'Enable'}
          </button>
          <ConfirmButton
            label="Rotate secret"
            question="Receivers must switch to the new secret at once."
            onConfirm={async () => {
              const r = await admin('webhooks.rotateSecret', { params: { endpoint_id: e.id } });
              props.onSecret(r.secret);
            }}
          />
          <ConfirmButton
            label="Delete"
            danger
            question="The endpoint and its delivery log are removed."
            onConfirm={async () => {
              await admin('webhooks.deleteEndpoint', { params: { endpoint_id: e.id } });
              props.onChanged();
            }}
          />
        </div>
      </div>
      <ErrorBox error={test.error} />
      {testResult && (
        <p role="status" data-testid="webhook-test-result">
          {testResult}
        </p>
      )}
      {props.expanded && <DeliveryLog endpointId={e.id} project={props.project} />}
    </>
  );
}

function DeliveryLog(props: { endpointId: string; project: AdminProject }) {
  const admin = useApi().admin(props.project.id);
  const log = useLoad(
    (): Promise<Page<WireDelivery>> => admin('webhooks.listDeliveries', { params: { endpoint_id: props.endpointId } }),
    [props.endpointId],
  );
  return (
    <div style={{ marginTop: 8 }}>
      <div className="d-row">
        <h3 style={{ margin: 0 }}>Delivery log</h3>
        <button type="button" className="d-link" onClick={log.reload}>
          Refresh
        </button>
      </div>
      <Async state={log} label="Loading deliveries…">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>Nothing sent yet.</Empty>
          ) : (
            <div style={{ overflowX: 'auto' }}>
              <table className="d-table" data-testid="webhook-deliveries">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Message</th>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Next attempt</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((d) => (
                    <tr key={d.message_id}>
                      <td>
                        <code>{d.event_type}</code>
                      </td>
                      <td>
                        <code style={{ overflowWrap: 'anywhere' }}>{d.message_id}</code>
                      </td>
                      <td>{d.status === 'succeeded' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Retrying'}</td>
                      <td>
                        <ul style={{ margin: 0, paddingLeft: 16 }}>
                          {d.attempts.map((a, i) => (
                            <li key={i}>
                              {formatTime(a.attempted_at_millis)}: {a.status_code ?? a.error ?? 'no answer'} ({a.duration_ms} ms)
                              {a.response_excerpt ? ` — ${a.response_excerpt.slice(0, 80)}` : ''}
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td>{d.next_attempt_at_millis ? formatTime(d.next_attempt_at_millis) : '—'}</td>
                      <td>
                        {d.status !== 'succeeded' && (
                          <button
                            type="button"
                            className="d-btn"
                            onClick={async () => {
                              await admin('webhooks.retryDelivery', {
                                params: { endpoint_id: props.endpointId, message_id: d.message_id },
                              });
                              log.reload();
                            }}
                          >
                            Retry
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </div>
  );
}

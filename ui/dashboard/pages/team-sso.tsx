import { useState } from 'react';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import type { Caller, Page } from '../api.ts';
import { DialogButton } from '../controls/dialog.tsx';
import { useToast } from '../controls/toast.tsx';
import {
  Async,
  ConfirmButton,
  CopyValue,
  Empty,
  ErrorBox,
  Field,
  Form,
  Section,
  TableScroll,
  formatTime,
  useAction,
  useLoad,
} from '../kit.tsx';

/** A connection as `GET /teams/{id}/sso-connections` answers it. */
export interface WireConnection {
  id: string;
  type: 'saml' | 'oidc';
  display_name: string | null;
  domains: string[];
  mfa_policy: 'trust_idp' | 'require_ours';
  sp_entity_id: string | null;
  acs_url: string | null;
  sp_metadata_url: string | null;
  redirect_uri: string | null;
  idp_entity_id: string | null;
  idp_metadata_url: string | null;
  idp_metadata_fetched_at_millis: number | null;
  issuer_url: string | null;
}
interface WireDomain {
  domain: string;
  verified: boolean;
  verified_at_millis: number | null;
  challenge: { type: 'TXT'; name: string; value: string };
}
interface WireScimToken {
  id: string;
  description: string;
  last_four: string;
  created_at_millis: number;
  last_used_at_millis: number | null;
}

/**
 * A team's enterprise SSO (docs/sso.md): its SSO connections with what the IdP admin pastes
 * (copy buttons), its verified domains with the TXT record to publish and a Verify button, and
 * its SCIM tokens (each shown once, at creation). `call` is the project's admin caller.
 */
export function TeamSsoSections(props: { call: Caller; teamId: string }) {
  return (
    <>
      <ConnectionsSection call={props.call} teamId={props.teamId} />
      <DomainsSection call={props.call} teamId={props.teamId} />
      <ScimSection call={props.call} teamId={props.teamId} />
    </>
  );
}

function ConnectionsSection(props: { call: Caller; teamId: string }) {
  const params = { team_id: props.teamId };
  const list = useLoad((): Promise<Page<WireConnection>> => props.call('sso.listConnections', { params }), [props.teamId]);
  return (
    <Section
      title="SSO connections"
      description="Members of this team sign in through their own identity provider (SAML or OpenID Connect)."
      actions={
        <DialogButton label="New connection" title="Create an SSO connection" icon={<Icon icon={Plus} />}>
          {(close) => <NewConnection call={props.call} teamId={props.teamId} onDone={() => (close(), list.reload())} />}
        </DialogButton>
      }
    >
      <Async state={list} label="Loading connections…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No SSO connection yet.</Empty>
          ) : (
            <div>
              {p.items.map((c) => (
                <ConnectionCard key={c.id} call={props.call} teamId={props.teamId} connection={c} onChange={list.reload} />
              ))}
            </div>
          )
        }
      </Async>
    </Section>
  );
}

function ConnectionCard(props: { call: Caller; teamId: string; connection: WireConnection; onChange: () => void }) {
  const c = props.connection;
  const params = { team_id: props.teamId, connection_id: c.id };
  const name = c.display_name || (c.type === 'saml' ? 'SAML connection' : 'OpenID connection');
  const action = useAction();
  const toast = useToast();
  const details: Array<[string, string | null]> =
    c.type === 'saml'
      ? [
          ['ACS URL', c.acs_url],
          ['SP entity ID', c.sp_entity_id],
          ['SP metadata URL', c.sp_metadata_url],
        ]
      : [['Redirect URI', c.redirect_uri]];
  return (
    <article className="d-card" aria-label={name} data-testid={`sso-connection-${c.id}`}>
      <h3>
        {name} <small className="d-muted">{c.type === 'saml' ? 'SAML 2.0' : 'OpenID Connect'}</small>
      </h3>
      <dl>
        {details.map(([label, value]) =>
          value ? (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <CopyValue value={value} label={label} />
              </dd>
            </div>
          ) : null,
        )}
        <div>
          <dt>Identity provider</dt>
          <dd>{c.idp_entity_id ?? c.issuer_url ?? '—'}</dd>
        </div>
        {c.idp_metadata_url ? (
          <div>
            <dt>IdP metadata</dt>
            <dd>
              fetched {formatTime(c.idp_metadata_fetched_at_millis)}{' '}
              <button
                type="button"
                className="d-btn d-small"
                disabled={action.busy}
                onClick={async () => {
                  if (await action.run(() => props.call('sso.refreshConnectionMetadata', { params, body: {} }))) {
                    toast('Metadata fetched again');
                    props.onChange();
                  }
                }}
              >
                Fetch again
              </button>
            </dd>
          </div>
        ) : null}
      </dl>
      <ErrorBox error={action.error} />
      <div className="d-row">
        <DialogButton label="Edit" title={`Edit ${name}`} primary={false}>
          {(close) => <EditConnection call={props.call} teamId={props.teamId} connection={c} onDone={() => (close(), props.onChange())} />}
        </DialogButton>
        <ConfirmButton
          label="Delete"
          question={`Delete ${name}? Its users keep their accounts.`}
          onConfirm={async () => {
            await props.call('sso.deleteConnection', { params, body: {} });
            props.onChange();
          }}
        />
      </div>
    </article>
  );
}

function MfaSelect(props: { value: string; onChange: (v: 'trust_idp' | 'require_ours') => void }) {
  return (
    <div className="d-field">
      <label htmlFor="sso-mfa-policy">Multi-factor authentication</label>
      <select
        id="sso-mfa-policy"
        value={props.value}
        onChange={(e) => props.onChange((e.target as HTMLSelectElement).value as 'trust_idp' | 'require_ours')}
      >
        <option value="trust_idp">Trust the identity provider's MFA</option>
        <option value="require_ours">Also ask for our TOTP code</option>
      </select>
    </div>
  );
}

function NewConnection(props: { call: Caller; teamId: string; onDone: () => void }) {
  const [type, setType] = useState<'saml' | 'oidc'>('saml');
  const [name, setName] = useState('');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const ready = type === 'saml' ? metadataUrl.trim() !== '' : issuer.trim() !== '' && clientId.trim() !== '' && clientSecret !== '';
  return (
    <Form
      label="Create an SSO connection"
      submit="Create connection"
      success="Connection created"
      disabled={!ready}
      onDone={props.onDone}
      onSubmit={() =>
        props.call('sso.createConnection', {
          params: { team_id: props.teamId },
          body:
            type === 'saml'
              ? { type, idp_metadata_url: metadataUrl.trim(), ...(name.trim() ? { display_name: name.trim() } : {}) }
              : {
                  type,
                  issuer_url: issuer.trim(),
                  client_id: clientId.trim(),
                  client_secret: clientSecret,
                  ...(name.trim() ? { display_name: name.trim() } : {}),
                },
        })
      }
    >
      <div className="d-field">
        <label htmlFor="sso-type">Protocol</label>
        <select id="sso-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as 'saml' | 'oidc')}>
          <option value="saml">SAML 2.0</option>
          <option value="oidc">OpenID Connect</option>
        </select>
      </div>
      <Field label="Name" name="sso-name" value={name} onChange={setName} placeholder="Okta" />
      {type === 'saml' ? (
        <Field
          label="IdP metadata URL"
          name="sso-metadata-url"
          type="url"
          value={metadataUrl}
          onChange={setMetadataUrl}
          hint="Fetched now and again every 24 hours, so certificate rollovers are followed."
        />
      ) : (
        <>
          <Field label="Issuer URL" name="sso-issuer" type="url" value={issuer} onChange={setIssuer} />
          <Field label="Client ID" name="sso-client-id" value={clientId} onChange={setClientId} />
          <Field label="Client secret" name="sso-client-secret" type="password" value={clientSecret} onChange={setClientSecret} />
        </>
      )}
    </Form>
  );
}

function EditConnection(props: { call: Caller; teamId: string; connection: WireConnection; onDone: () => void }) {
  const [name, setName] = useState(props.connection.display_name ?? '');
  const [mfa, setMfa] = useState(props.connection.mfa_policy);
  return (
    <Form
      label="Edit the connection"
      submit="Save"
      success="Connection saved"
      onDone={props.onDone}
      onSubmit={() =>
        props.call('sso.updateConnection', {
          params: { team_id: props.teamId, connection_id: props.connection.id },
          body: { display_name: name.trim() || null, mfa_policy: mfa },
        })
      }
    >
      <Field label="Name" name="sso-edit-name" value={name} onChange={setName} />
      <MfaSelect value={mfa} onChange={setMfa} />
    </Form>
  );
}

function DomainsSection(props: { call: Caller; teamId: string }) {
  const params = { team_id: props.teamId };
  const list = useLoad((): Promise<Page<WireDomain>> => props.call('teamDomains.list', { params }), [props.teamId]);
  const [domain, setDomain] = useState('');
  const action = useAction();
  const toast = useToast();
  return (
    <Section
      title="Verified domains"
      description="Publish the TXT record at your DNS host, then verify. Addresses at a verified domain sign in through this team's connection."
    >
      <Async state={list} label="Loading domains…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No domain claimed yet.</Empty>
          ) : (
            <TableScroll label="Domains">
              <table className="d-table" aria-label="Domains">
                <thead>
                  <tr>
                    <th>Domain</th>
                    <th>Status</th>
                    <th>TXT record</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((d) => (
                    <tr key={d.domain}>
                      <td>{d.domain}</td>
                      <td>{d.verified ? `Verified ${formatTime(d.verified_at_millis)}` : 'Not verified'}</td>
                      <td>
                        {d.verified ? (
                          '—'
                        ) : (
                          <>
                            <CopyValue value={d.challenge.name} label={`TXT record name for ${d.domain}`} />{' '}
                            <CopyValue value={d.challenge.value} label={`TXT record value for ${d.domain}`} />
                          </>
                        )}
                      </td>
                      <td>
                        {d.verified ? null : (
                          <button
                            type="button"
                            className="d-btn d-small"
                            disabled={action.busy}
                            onClick={async () => {
                              let verified = false;
                              const ok = await action.run(async () => {
                                const res = await props.call('teamDomains.verify', { params: { ...params, domain: d.domain }, body: {} });
                                verified = res.verified === true;
                              });
                              if (ok) toast(verified ? `${d.domain} verified` : `The TXT record of ${d.domain} was not found yet`);
                              list.reload();
                            }}
                          >
                            Verify
                          </button>
                        )}{' '}
                        <ConfirmButton
                          label="Remove"
                          question={`Remove ${d.domain}?`}
                          onConfirm={async () => {
                            await props.call('teamDomains.delete', { params: { ...params, domain: d.domain }, body: {} });
                            list.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Async>
      <ErrorBox error={action.error} />
      <Form
        label="Claim a domain"
        submit="Add domain"
        success="Domain added: publish its TXT record"
        disabled={!domain.trim()}
        onSubmit={async () => {
          await props.call('teamDomains.create', { params, body: { domain: domain.trim() } });
          setDomain('');
          list.reload();
        }}
      >
        <Field label="Domain" name="team-domain" value={domain} onChange={setDomain} placeholder="example.com" />
      </Form>
    </Section>
  );
}

function ScimSection(props: { call: Caller; teamId: string }) {
  const params = { team_id: props.teamId };
  const list = useLoad((): Promise<Page<WireScimToken>> => props.call('scim.listTokens', { params }), [props.teamId]);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<{ token: string; base_url: string } | null>(null);
  return (
    <Section title="SCIM provisioning" description="Your identity provider creates, updates and removes this team's members over SCIM 2.0.">
      {created ? (
        <div role="status" className="d-card" data-testid="scim-token-created">
          <p>Copy the token now: it is not shown again.</p>
          <p>
            Base URL <CopyValue value={created.base_url} label="SCIM base URL" />
          </p>
          <p>
            Token <CopyValue value={created.token} label="SCIM token" testId="scim-token" />
          </p>
        </div>
      ) : null}
      <Async state={list} label="Loading SCIM tokens…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No SCIM token.</Empty>
          ) : (
            <TableScroll label="SCIM tokens">
              <table className="d-table" aria-label="SCIM tokens">
                <thead>
                  <tr>
                    <th>Description</th>
                    <th>Ends in</th>
                    <th>Last used</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((tok) => (
                    <tr key={tok.id}>
                      <td>{tok.description || '—'}</td>
                      <td>
                        <code>…{tok.last_four}</code>
                      </td>
                      <td>{formatTime(tok.last_used_at_millis)}</td>
                      <td>
                        <ConfirmButton
                          label="Revoke"
                          question="Revoke this SCIM token?"
                          onConfirm={async () => {
                            await props.call('scim.deleteToken', { params: { ...params, token_id: tok.id }, body: {} });
                            list.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )
        }
      </Async>
      <Form
        label="Create a SCIM token"
        submit="Create token"
        success="SCIM token created"
        onSubmit={async () => {
          const res = await props.call('scim.createToken', { params, body: description.trim() ? { description: description.trim() } : {} });
          setCreated({ token: res.token, base_url: res.base_url });
          setDescription('');
          list.reload();
        }}
      >
        <Field label="Token description" name="scim-description" value={description} onChange={setDescription} placeholder="Okta" />
      </Form>
    </Section>
  );
}

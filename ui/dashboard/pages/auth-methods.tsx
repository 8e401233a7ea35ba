import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, Empty, ErrorBox, Field, Form, Section, Toggle, useAction, useApi, useLoad } from '../kit.tsx';
import { handlerPathProblem, isValidDomainUrl } from '../validate.ts';

/** OAuth providers a project can configure (core/config/project-config.ts OAUTH_PROVIDER_IDS). */
export const OAUTH_PROVIDERS = ['google', 'github', 'microsoft', 'spotify', 'facebook', 'discord', 'gitlab', 'bitbucket', 'linkedin', 'apple', 'x', 'twitch'] as const;

const SWITCHES: { key: string; label: string; hint?: string; needs?: 'passkey' }[] = [
  { key: 'credential_enabled', label: 'Email and password' },
  { key: 'magic_link_enabled', label: 'Magic link / one-time code' },
  { key: 'passkey_enabled', label: 'Passkey', needs: 'passkey' },
  { key: 'sign_up_enabled', label: 'Sign-up enabled', hint: 'new users may create accounts' },
  { key: 'create_team_on_sign_up', label: 'Personal team on sign-up' },
  { key: 'client_team_creation_enabled', label: 'Users may create teams' },
  { key: 'client_user_deletion_enabled', label: 'Users may delete their account' },
  { key: 'allow_user_api_keys', label: 'User API keys' },
  { key: 'allow_team_api_keys', label: 'Team API keys' },
];

/** A domain field's problem as you type (spec §5 trusted-domain rules). */
export function domainProblem(domain: string): string | null {
  if (!domain) return null;
  return isValidDomainUrl(domain) ? null : 'Not a valid domain: use http(s)://host[:port], letters, digits, dots, hyphens and * wildcards in the host only (e.g. https://app.example.com or https://*.example.com).';
}

/** Auth methods, OAuth providers, merge strategy, trusted domains and handler paths (`PATCH /internal/projects/current` config). */
export function AuthMethodsPage(props: { project: AdminProject; onChanged: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const current = useLoad(() => admin<AdminProject>('GET', '/internal/projects/current'), [props.project.id]);
  // Only what this server can do is offered (a switch for a missing route would answer 404).
  const can = api.boot.capabilities ?? { passkey: false, oauth: false };
  const save = async (config: Record<string, unknown>) => {
    await admin('PATCH', '/internal/projects/current', { body: { config } });
    current.reload();
    props.onChanged();
  };
  return (
    <>
      <div className="d-top"><h1>Auth methods</h1></div>
      <Async state={current} label="Loading settings…">
        {(p) => (
          <>
            <Switches config={p.config} save={save} passkey={can.passkey} />
            <TrustedDomains config={p.config} save={save} />
            {can.oauth ? <OAuthProviders config={p.config} save={save} /> : (
              <Section title="OAuth providers"><p className="d-muted" data-testid="oauth-unavailable">Sign-in with OAuth providers is not available on this server version.</p></Section>
            )}
          </>
        )}
      </Async>
    </>
  );
}

function Switches(props: { config: Record<string, any>; save: (c: Record<string, unknown>) => Promise<void>; passkey: boolean }) {
  const action = useAction();
  return (
    <Section title="Sign-in methods and permissions">
      {SWITCHES.filter((s) => s.needs !== 'passkey' || props.passkey).map((s) => (
        <Toggle key={s.key} label={s.label} hint={s.hint} checked={!!props.config[s.key]} disabled={action.busy} onChange={(on) => action.run(() => props.save({ [s.key]: on }))} />
      ))}
      <div className="d-field" style={{ maxWidth: 360, marginTop: 8 }}>
        <label htmlFor="merge-strategy">OAuth account merge strategy</label>
        <select id="merge-strategy" value={props.config.oauth_account_merge_strategy} disabled={action.busy} onChange={(e) => action.run(() => props.save({ oauth_account_merge_strategy: (e.target as HTMLSelectElement).value }))}>
          <option value="link_method">Link to the existing account with the same email</option>
          <option value="raise_error">Refuse (email already in use)</option>
          <option value="allow_duplicates">Create a separate account</option>
        </select>
      </div>
      <ErrorBox error={action.error} />
    </Section>
  );
}

function TrustedDomains(props: { config: Record<string, any>; save: (c: Record<string, unknown>) => Promise<void> }) {
  const domains = (props.config.domains ?? []) as { domain: string; handler_path: string }[];
  const [domain, setDomain] = useState('');
  const [handlerPath, setHandlerPath] = useState('/handler');
  const localhost = useAction();
  const dProblem = domainProblem(domain.trim());
  const hProblem = handlerPathProblem(handlerPath);
  return (
    <Section title="Trusted domains" description="Redirects (after sign-in, OAuth, email links) may only go to these domains.">
      <Toggle label="Allow localhost" hint="for development" checked={!!props.config.allow_localhost} disabled={localhost.busy} onChange={(on) => localhost.run(() => props.save({ allow_localhost: on }))} />
      <ErrorBox error={localhost.error} />
      {domains.length === 0 ? <Empty>No trusted domains yet.</Empty> : (
        <table className="d-table" aria-label="Trusted domains">
          <thead><tr><th>Domain</th><th>Handler path</th><th /></tr></thead>
          <tbody>
            {domains.map((d) => (
              <tr key={d.domain}><td>{d.domain}</td><td>{d.handler_path}</td><td><ConfirmButton label="Remove" question="Redirects to it will be refused." onConfirm={() => props.save({ domains: domains.filter((x) => x.domain !== d.domain) })} /></td></tr>
            ))}
          </tbody>
        </table>
      )}
      <Form label="Add a trusted domain" submit="Add domain" disabled={!domain.trim() || !!dProblem || !!hProblem} onSubmit={async () => {
        if (!domain.trim() || dProblem || hProblem) throw new Error(dProblem ?? hProblem ?? 'Enter a domain.');
        await props.save({ domains: [...domains.filter((x) => x.domain !== domain.trim()), { domain: domain.trim(), handler_path: handlerPath }] });
        setDomain('');
      }}>
        <Field label="Domain" name="domain" value={domain} onChange={setDomain} placeholder="https://app.example.com" error={dProblem} />
        <Field label="Handler path" name="handler_path" value={handlerPath} onChange={setHandlerPath} error={hProblem} />
      </Form>
    </Section>
  );
}

function OAuthProviders(props: { config: Record<string, any>; save: (c: Record<string, unknown>) => Promise<void> }) {
  const providers = (props.config.oauth_providers ?? []) as { id: string; type: 'shared' | 'standard'; enabled: boolean; client_id?: string; client_secret?: string }[];
  const [id, setId] = useState<string>('github');
  const [type, setType] = useState<'shared' | 'standard'>('shared');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [touched, setTouched] = useState(false);
  const missing = type === 'standard' && touched && (!clientId.trim() || !clientSecret.trim());
  const strip = (p: typeof providers[number]) => ({ id: p.id, type: p.type, enabled: p.enabled, ...(p.client_id ? { client_id: p.client_id } : {}), ...(p.client_secret ? { client_secret: p.client_secret } : {}) });
  return (
    <Section title="OAuth providers" description="Shared providers use Gatehouse's development credentials; standard ones use your own client ID and secret.">
      {providers.length === 0 ? <Empty>No OAuth providers.</Empty> : (
        <table className="d-table" aria-label="OAuth providers">
          <thead><tr><th>Provider</th><th>Type</th><th>Client ID</th><th>Enabled</th><th /></tr></thead>
          <tbody>
            {providers.map((p) => (
              <tr key={p.id}>
                <td>{p.id}</td><td>{p.type}</td><td>{p.client_id ?? '—'}</td>
                <td><Toggle label="Enabled" checked={p.enabled} onChange={(on) => props.save({ oauth_providers: providers.map((x) => strip(x.id === p.id ? { ...x, enabled: on } : x)) })} /></td>
                <td><ConfirmButton label="Remove" question={`Users can no longer sign in with ${p.id}.`} onConfirm={() => props.save({ oauth_providers: providers.filter((x) => x.id !== p.id).map(strip) })} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form label="Add an OAuth provider" submit="Save provider" onSubmit={async () => {
        setTouched(true);
        if (type === 'standard' && (!clientId.trim() || !clientSecret.trim())) throw new Error('Standard OAuth providers require a client ID and a client secret.');
        const next = { id, type, enabled: true, ...(type === 'standard' ? { client_id: clientId.trim(), client_secret: clientSecret.trim() } : {}) };
        await props.save({ oauth_providers: [...providers.filter((x) => x.id !== id).map(strip), next] });
        setClientId(''); setClientSecret(''); setTouched(false);
      }}>
        <div className="d-row">
          <div className="d-field"><label htmlFor="oauth-id">Provider</label><select id="oauth-id" value={id} onChange={(e) => setId((e.target as HTMLSelectElement).value)}>{OAUTH_PROVIDERS.map((p) => <option key={p} value={p}>{p}</option>)}</select></div>
          <div className="d-field"><label htmlFor="oauth-type">Type</label><select id="oauth-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as 'shared' | 'standard')}><option value="shared">Shared (development)</option><option value="standard">Standard (own credentials)</option></select></div>
        </div>
        {type === 'standard' && <>
          <Field label="Client ID" name="client_id" value={clientId} onChange={setClientId} error={missing && !clientId.trim() ? 'Required for a standard provider.' : null} />
          <Field label="Client secret" name="client_secret" type="password" value={clientSecret} onChange={setClientSecret} error={missing && !clientSecret.trim() ? 'Required for a standard provider.' : null} />
        </>}
      </Form>
    </Section>
  );
}

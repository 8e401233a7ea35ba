import { useState } from 'react';
import { ProviderIcon } from '../../components/oauth-icons.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import { routePath } from '../../../sdk/routes.ts';
import { ConfirmButton, Empty, Field, Form, Section, Toggle, useApi, CopyValue } from '../kit.tsx';

/** OAuth providers a project can configure (core/config/project-config.ts OAUTH_PROVIDER_IDS). */
export const OAUTH_PROVIDERS = [
  'google',
  'github',
  'microsoft',
  'spotify',
  'facebook',
  'discord',
  'gitlab',
  'bitbucket',
  'linkedin',
  'apple',
  'x',
  'twitch',
] as const;

/** The value of the provider select that adds a generic OpenID Connect provider. */
const GENERIC = '__oidc__';
const GENERIC_ID = /^[a-z0-9-]{1,32}$/;

type ProviderEntry = {
  id: string;
  type: 'shared' | 'standard';
  enabled: boolean;
  client_id?: string;
  client_secret?: string;
  facebook_config_id?: string;
  microsoft_tenant_id?: string;
  issuer_url?: string;
  display_name?: string;
};

/** The config entry as the update schema takes it (known keys only). */
function strip(p: ProviderEntry): ProviderEntry {
  const out: ProviderEntry = { id: p.id, type: p.type, enabled: p.enabled };
  for (const key of ['client_id', 'client_secret', 'facebook_config_id', 'microsoft_tenant_id', 'issuer_url', 'display_name'] as const)
    if (p[key]) out[key] = p[key];
  return out;
}

/**
 * The project's OAuth providers (legacy `config.oauth_providers[]`): enable, remove, add one of
 * the twelve built-in providers or any OpenID Connect provider by issuer, and the callback URL
 * to register at the provider for each (`<server>/api/v1/auth/oauth/callback/<id>`).
 */
export function OAuthProviders(props: { config: Record<string, any>; save: (c: Record<string, unknown>) => Promise<void> }) {
  const api = useApi();
  const providers = (props.config.oauth_providers ?? []) as ProviderEntry[];
  const [choice, setChoice] = useState<string>('github');
  // Standard by default: shared means the development provider, where anyone picks any email.
  const [type, setType] = useState<'shared' | 'standard'>('standard');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [tenant, setTenant] = useState('');
  const [configId, setConfigId] = useState('');
  const [genericId, setGenericId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [issuer, setIssuer] = useState('');
  const [touched, setTouched] = useState(false);
  const generic = choice === GENERIC;
  const kind = generic ? 'standard' : type;
  const id = generic ? genericId.trim() : choice;
  const missing = kind === 'standard' && touched && (!clientId.trim() || !clientSecret.trim());
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const callbackUrl = (providerId: string) =>
    `${origin}${api.prefix}/api/v1${routePath('authOauth.callback', { provider_id: providerId || '<id>' })}`;
  return (
    <Section
      title="OAuth providers"
      description="Standard providers use your own client ID and secret from the provider; register the callback URL shown here at the provider. Shared providers are for trying OAuth offline: Gatehouse's built-in development provider shows a page where anyone can type any email, its identities are never verified nor linked to existing accounts, and a server in production mode refuses it."
      actions={
        <DialogButton label="New provider" title="Add an OAuth provider" icon={<Icon icon={Plus} />}>
          {(close) => (
            <Form
              onDone={close}
              success="Provider saved"
              label="Add an OAuth provider"
              submit="Save provider"
              onSubmit={async () => {
                setTouched(true);
                if (generic && (!GENERIC_ID.test(id) || (OAUTH_PROVIDERS as readonly string[]).includes(id)))
                  throw new Error(
                    'The id of an OpenID Connect provider must be 1 to 32 lowercase letters, digits or hyphens, and not a built-in provider id.',
                  );
                if (generic && !/^https?:\/\/\S+$/.test(issuer.trim()))
                  throw new Error('The issuer URL of an OpenID Connect provider is required (e.g. https://login.example.com/realms/main).');
                if (kind === 'standard' && (!clientId.trim() || !clientSecret.trim()))
                  throw new Error('Standard OAuth providers require a client ID and a client secret.');
                const next: ProviderEntry = {
                  id,
                  type: kind,
                  enabled: true,
                  ...(kind === 'standard' ? { client_id: clientId.trim(), client_secret: clientSecret.trim() } : {}),
                  ...(choice === 'microsoft' && kind === 'standard' && tenant.trim() ? { microsoft_tenant_id: tenant.trim() } : {}),
                  ...(choice === 'facebook' && kind === 'standard' && configId.trim() ? { facebook_config_id: configId.trim() } : {}),
                  ...(generic ? { issuer_url: issuer.trim(), ...(displayName.trim() ? { display_name: displayName.trim() } : {}) } : {}),
                };
                await props.save({ oauth_providers: [...providers.filter((x) => x.id !== id).map(strip), next] });
                setClientId('');
                setClientSecret('');
                setTenant('');
                setConfigId('');
                setGenericId('');
                setDisplayName('');
                setIssuer('');
                setTouched(false);
              }}
            >
              <div className="d-row">
                <div className="d-field">
                  <label htmlFor="oauth-id">Provider</label>
                  <select id="oauth-id" value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
                    {OAUTH_PROVIDERS.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                    <option value={GENERIC}>Other OpenID Connect provider…</option>
                  </select>
                </div>
                {!generic ? (
                  <div className="d-field">
                    <label htmlFor="oauth-type">Type</label>
                    <select
                      id="oauth-type"
                      value={type}
                      onChange={(e) => setType((e.target as HTMLSelectElement).value as 'shared' | 'standard')}
                    >
                      <option value="standard">Standard (own credentials)</option>
                      <option value="shared">Shared (development only)</option>
                    </select>
                  </div>
                ) : null}
              </div>
              {kind === 'shared' ? (
                <p className="d-muted" data-testid="oauth-shared-explained">
                  Shared: Gatehouse's built-in development provider stands in for {choice}. Anyone can sign in there with any email, so
                  these accounts are never verified and never linked to existing users by email, and a server in production mode
                  (GATEHOUSE_ENVIRONMENT=production, the default) refuses the provider. Use it only to try OAuth locally.
                </p>
              ) : null}
              {generic ? (
                <>
                  <Field
                    label="Provider id"
                    name="oauth_generic_id"
                    value={genericId}
                    onChange={setGenericId}
                    hint="lowercase letters, digits, hyphens; e.g. okta or keycloak"
                  />
                  <Field
                    label="Display name"
                    name="oauth_display_name"
                    value={displayName}
                    onChange={setDisplayName}
                    hint="shown on the sign-in button"
                  />
                  <Field
                    label="Issuer URL"
                    name="oauth_issuer_url"
                    value={issuer}
                    onChange={setIssuer}
                    hint="its /.well-known/openid-configuration is read"
                  />
                </>
              ) : null}
              {kind === 'standard' ? (
                <>
                  <Field
                    label="Client ID"
                    name="client_id"
                    value={clientId}
                    onChange={setClientId}
                    error={missing && !clientId.trim() ? 'Required for a standard provider.' : null}
                  />
                  <Field
                    label="Client secret"
                    name="client_secret"
                    type="password"
                    value={clientSecret}
                    onChange={setClientSecret}
                    error={missing && !clientSecret.trim() ? 'Required for a standard provider.' : null}
                  />
                  {choice === 'microsoft' ? (
                    <Field
                      label="Microsoft tenant ID"
                      name="microsoft_tenant_id"
                      value={tenant}
                      onChange={setTenant}
                      hint="default: consumers"
                    />
                  ) : null}
                  {choice === 'facebook' ? (
                    <Field
                      label="Facebook configuration ID"
                      name="facebook_config_id"
                      value={configId}
                      onChange={setConfigId}
                      hint="Facebook Login for Business"
                    />
                  ) : null}
                  <p className="d-muted">
                    Callback URL to register at the provider: <code data-testid="callback-url-new">{callbackUrl(id)}</code>
                  </p>
                </>
              ) : null}
            </Form>
          )}
        </DialogButton>
      }
    >
      {providers.length === 0 ? (
        <Empty>No OAuth providers.</Empty>
      ) : (
        <table className="d-table d-cards" aria-label="OAuth providers">
          <thead>
            <tr>
              <th>Provider</th>
              <th>Type</th>
              <th>Client ID</th>
              <th>Callback URL</th>
              <th>Enabled</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => (
              <tr key={p.id}>
                <td data-label="Provider">
                  <span className="d-row" style={{ gap: 6 }}>
                    <ProviderIcon id={p.id} />
                    {p.display_name ?? p.id}
                  </span>
                  {p.issuer_url ? <div className="d-muted">{p.issuer_url}</div> : null}
                </td>
                <td data-label="Type">{p.type}</td>
                <td data-label="Client ID">{p.client_id ?? '—'}</td>
                <td data-label="Callback URL">
                  {p.type === 'standard' ? (
                    <CopyValue value={callbackUrl(p.id)} label={`${p.id} callback URL`} testId={`callback-url-${p.id}`} />
                  ) : (
                    <span className="d-muted">not needed</span>
                  )}
                </td>
                <td>
                  <Toggle
                    label="Enabled"
                    checked={p.enabled}
                    onChange={(on) =>
                      props.save({ oauth_providers: providers.map((x) => strip(x.id === p.id ? { ...x, enabled: on } : x)) })
                    }
                  />
                </td>
                <td>
                  <ConfirmButton
                    label="Remove"
                    question={`Users can no longer sign in with ${p.display_name ?? p.id}.`}
                    onConfirm={() => props.save({ oauth_providers: providers.filter((x) => x.id !== p.id).map(strip) })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

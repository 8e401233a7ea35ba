import { useState } from 'react';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, Empty, ErrorBox, Field, Form, Section, Toggle, useAction, useApi, useLoad } from '../kit.tsx';
import { handlerPathProblem, isValidDomainUrl } from '../validate.ts';

import { OAuthProviders } from './oauth-providers.tsx';
import { BotChallengeSection } from './bot-challenge.tsx';

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

/** A domain field's problem as you type (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts trusted-domain rules). */
export function domainProblem(domain: string): string | null {
  if (!domain) return null;
  return isValidDomainUrl(domain)
    ? null
    : 'Not a valid domain: use http(s)://host[:port], letters, digits, dots, hyphens and * wildcards in the host only (e.g. https://app.example.com or https://*.example.com).';
}

/** Auth methods, OAuth providers, merge strategy, trusted domains and handler paths (`PATCH /internal/projects/current` config). */
export function AuthMethodsPage(props: { project: AdminProject; onChanged: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const current = useLoad(() => admin('projects.getCurrentAdmin'), [props.project.id]);
  // Only what this server can do is offered (a switch for a missing route would answer 404).
  const can = api.boot.capabilities ?? { passkey: false, oauth: false, mfa: false };
  const save = async (config: Record<string, unknown>) => {
    await admin('projects.updateCurrent', { body: { config } });
    current.reload();
    props.onChanged();
  };
  return (
    <>
      <div className="d-top">
        <h1>Auth methods</h1>
      </div>
      <Async state={current} label="Loading settings…">
        {(p) => (
          <>
            <Switches config={p.config} save={save} passkey={can.passkey} />
            <TrustedDomains config={p.config} save={save} />
            {can.oauth ? (
              <OAuthProviders config={p.config} save={save} />
            ) : (
              <Section title="OAuth providers">
                <p className="d-muted" data-testid="oauth-unavailable">
                  Sign-in with OAuth providers is not available on this server version.
                </p>
              </Section>
            )}
            <BotChallengeSection projectId={props.project.id} onChanged={props.onChanged} />
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
        <Toggle
          key={s.key}
          label={s.label}
          hint={s.hint}
          checked={!!props.config[s.key]}
          disabled={action.busy}
          onChange={(on) => action.run(() => props.save({ [s.key]: on }))}
        />
      ))}
      <div className="d-field" style={{ maxWidth: 360, marginTop: 8 }}>
        <label htmlFor="merge-strategy">OAuth account merge strategy</label>
        <select
          id="merge-strategy"
          value={props.config.oauth_account_merge_strategy}
          disabled={action.busy}
          onChange={(e) => action.run(() => props.save({ oauth_account_merge_strategy: (e.target as HTMLSelectElement).value }))}
        >
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
    <Section
      title="Trusted domains"
      description="Redirects (after sign-in, OAuth, email links) may only go to these domains."
      actions={
        <DialogButton label="New trusted domain" title="Add a trusted domain" icon={<Icon icon={Plus} />}>
          {(close) => (
            <Form
              onDone={close}
              success="Domain added"
              label="Add a trusted domain"
              submit="Add domain"
              disabled={!domain.trim() || !!dProblem || !!hProblem}
              disabledReason={!domain.trim() ? 'Enter a domain to add.' : 'Fix the domain or handler path above first.'}
              onSubmit={async () => {
                if (!domain.trim() || dProblem || hProblem) throw new Error(dProblem ?? hProblem ?? 'Enter a domain.');
                await props.save({
                  domains: [...domains.filter((x) => x.domain !== domain.trim()), { domain: domain.trim(), handler_path: handlerPath }],
                });
                setDomain('');
              }}
            >
              <Field
                label="Domain"
                name="domain"
                value={domain}
                onChange={setDomain}
                placeholder="https://app.example.com"
                error={dProblem}
              />
              <Field label="Handler path" name="handler_path" value={handlerPath} onChange={setHandlerPath} error={hProblem} />
            </Form>
          )}
        </DialogButton>
      }
    >
      <Toggle
        label="Allow localhost"
        hint="for development"
        checked={!!props.config.allow_localhost}
        disabled={localhost.busy}
        onChange={(on) => localhost.run(() => props.save({ allow_localhost: on }))}
      />
      <ErrorBox error={localhost.error} />
      {domains.length === 0 ? (
        <Empty>No trusted domains yet.</Empty>
      ) : (
        <table className="d-table" aria-label="Trusted domains">
          <thead>
            <tr>
              <th>Domain</th>
              <th>Handler path</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {domains.map((d) => (
              <tr key={d.domain}>
                <td>{d.domain}</td>
                <td>{d.handler_path}</td>
                <td>
                  <ConfirmButton
                    label="Remove"
                    question="Redirects to it will be refused."
                    onConfirm={() => props.save({ domains: domains.filter((x) => x.domain !== d.domain) })}
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

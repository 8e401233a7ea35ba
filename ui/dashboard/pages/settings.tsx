import { useState } from 'react';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, ErrorBox, Field, Form, Section, Toggle, useAction, useApi, useLoad, CopyValue } from '../kit.tsx';
import { useRouter } from '../router.tsx';
import { isProductionSafeDomainUrl } from '../validate.ts';
import { BrandingSection } from './branding.tsx';

/**
 * The upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts production-mode rules that a project's current config breaks, as readable lines
 * (trusted domains only: `allow_localhost` may stay on, as upstream allows).
 */
export function productionProblems(config: Record<string, any>): string[] {
  const problems: string[] = [];
  for (const d of (config.domains ?? []) as { domain: string }[]) {
    if (!isProductionSafeDomainUrl(d.domain))
      problems.push(`Trusted domain ${d.domain} must use HTTPS and must not be localhost or an IP address.`);
  }
  return problems;
}

/** Rename, describe, production mode, transfer to another team, delete (`/internal/projects/*`). */
export function ProjectSettings(props: { project: AdminProject; onChanged: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const { navigate } = useRouter();
  const current = useLoad(() => admin('projects.getCurrentAdmin'), [props.project.id]);
  return (
    <>
      <div className="d-top">
        <h1>Project settings</h1>
      </div>
      <Async state={current} label="Loading project…">
        {(p) => (
          <SettingsBody
            project={p}
            reload={() => {
              current.reload();
              props.onChanged();
            }}
            onDeleted={() => {
              props.onChanged();
              navigate('/');
            }}
          />
        )}
      </Async>
    </>
  );
}

function SettingsBody(props: { project: AdminProject; reload: () => void; onDeleted: () => void }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const [name, setName] = useState(props.project.display_name);
  const [description, setDescription] = useState(props.project.description ?? '');
  const production = useAction();
  const problems = productionProblems(props.project.config);
  const teams = useLoad(() => api.internal('teams.list', { query: { user_id: 'me' } }), []);
  const [team, setTeam] = useState('');
  return (
    <>
      <Section title="Name and description">
        <Form
          label="Project name"
          submit="Save"
          onSubmit={() => admin('projects.updateCurrent', { body: { display_name: name.trim(), description: description.trim() || null } })}
          onDone={props.reload}
          disabled={!name.trim()}
        >
          <Field
            label="Project name"
            name="display_name"
            value={name}
            onChange={setName}
            error={!name.trim() ? 'The name must not be empty.' : null}
          />
          <Field label="Description" name="description" value={description} onChange={setDescription} />
        </Form>
        <p className="d-muted">
          Project ID: <CopyValue value={props.project.id} label="project ID" />
        </p>
      </Section>
      <Section
        title="Production mode"
        description="Production projects may only trust HTTPS domains that are not localhost or IP addresses."
      >
        <Toggle
          label="Production mode"
          checked={props.project.is_production_mode}
          disabled={production.busy}
          onChange={async (on) => {
            if (await production.run(() => admin('projects.updateCurrent', { body: { is_production_mode: on } }))) props.reload();
          }}
        />
        {!props.project.is_production_mode && problems.length > 0 && (
          <div className="d-muted">
            <p>Before switching on production mode:</p>
            <ul>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        <ErrorBox error={production.error} />
      </Section>
      <BrandingSection project={props.project} reload={props.reload} />
      <Section title="Transfer to another team" description="Owners are the members of the project's owner team in the dashboard.">
        <Async state={teams} label="Loading your teams…">
          {(page) => {
            const others = page.items.filter((t) => t.id !== props.project.owner_team_id);
            if (others.length === 0) return <p className="d-muted">You are a member of no other team to transfer this project to.</p>;
            return (
              <Form
                label="Transfer project"
                submit="Transfer"
                onSubmit={async () => {
                  if (!team) throw new Error('Choose a team.');
                  await api.internal('projects.transfer', { body: { project_id: props.project.id, new_team_id: team } });
                }}
                onDone={props.reload}
              >
                <div className="d-field">
                  <label htmlFor="transfer-team">New owner team</label>
                  <select id="transfer-team" value={team} onChange={(e) => setTeam((e.target as HTMLSelectElement).value)}>
                    <option value="">Choose a team…</option>
                    {others.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.display_name}
                      </option>
                    ))}
                  </select>
                </div>
              </Form>
            );
          }}
        </Async>
      </Section>
      <Section title="Danger zone">
        <ConfirmButton
          label="Delete project"
          question={`Delete ${props.project.display_name} and all its users? This cannot be undone.`}
          onConfirm={async () => {
            await admin('projects.deleteCurrent', { body: {} });
            props.onDeleted();
          }}
        />
      </Section>
    </>
  );
}

import { useState, type ReactNode } from 'react';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import { Async, ConfirmButton, Empty, Field, Form, Section, useApi, useLoad, TableScroll } from '../kit.tsx';

interface Definition {
  id: string;
  description?: string | null;
  contained_permission_ids: string[];
}

/** Permission ids: lowercase letters, digits, `:` and `_`, optional leading `$` (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts). */
export function permissionIdProblem(id: string): string | null {
  if (!id) return null;
  if (id.startsWith('$')) return 'System permissions must start with a dollar sign and cannot be created here.';
  return /^[a-z0-9:_]+$/.test(id) ? null : 'Only lowercase letters, numbers, ":", "_" and optional "$" at the beginning are allowed';
}

/** The contained-permissions graph as nested lists (cycles are cut). */
export function PermissionTree(props: { definitions: Definition[]; id: string; seen?: Set<string> }): ReactNode {
  const byId = new Map(props.definitions.map((d) => [d.id, d]));
  const seen = new Set(props.seen ?? []);
  seen.add(props.id);
  const children = byId.get(props.id)?.contained_permission_ids ?? [];
  return (
    <li>
      <code>{props.id}</code>
      {children.length > 0 && (
        <ul>
          {children.map((c) =>
            seen.has(c) ? (
              <li key={c}>
                <code>{c}</code> (cycle)
              </li>
            ) : (
              <PermissionTree key={c} definitions={props.definitions} id={c} seen={seen} />
            ),
          )}
        </ul>
      )}
    </li>
  );
}

/** Team and project permission definitions (`/{team,project}-permission-definitions`). */
export function PermissionsPage(props: { project: AdminProject }) {
  return (
    <>
      <div className="d-top">
        <h1>Permissions</h1>
      </div>
      <Definitions project={props.project} scope="team" />
      <Definitions project={props.project} scope="project" />
    </>
  );
}

function Definitions(props: { project: AdminProject; scope: 'team' | 'project' }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const team = props.scope === 'team';
  const defs = useLoad(
    (): Promise<Page<Definition>> => (team ? admin('permissions.listTeamDefinitions') : admin('permissions.listProjectDefinitions')),
    [props.project.id],
  );
  const [id, setId] = useState('');
  const [description, setDescription] = useState('');
  const [contained, setContained] = useState<string[]>([]);
  const problem = permissionIdProblem(id);
  const title = props.scope === 'team' ? 'Team permissions' : 'Project permissions';
  return (
    <Section
      title={title}
      actions={
        <DialogButton label={`New ${props.scope} permission`} title={`Create a ${props.scope} permission`} icon={<Icon icon={Plus} />}>
          {(close) => (
            <Form
              onDone={close}
              success="Permission created"
              label={`Create a ${props.scope} permission`}
              submit="Create permission"
              disabled={!id || !!problem}
              disabledReason={!id ? 'Enter a permission ID to create.' : 'Fix the permission ID above first.'}
              onSubmit={async () => {
                const body = { id, description: description || undefined, contained_permission_ids: contained };
                await (team ? admin('permissions.createTeamDefinition', { body }) : admin('permissions.createProjectDefinition', { body }));
                setId('');
                setDescription('');
                setContained([]);
                defs.reload();
              }}
            >
              <Field
                label="Permission ID"
                name={`${props.scope}-permission-id`}
                value={id}
                onChange={setId}
                error={problem}
                placeholder="e.g. read:docs"
              />
              <Field label="Description" name={`${props.scope}-permission-description`} value={description} onChange={setDescription} />
              {(defs.data?.items.length ?? 0) > 0 && (
                <fieldset>
                  <legend>Contains</legend>
                  {defs.data!.items.map((d) => (
                    <label key={d.id} className="d-toggle">
                      <input
                        type="checkbox"
                        checked={contained.includes(d.id)}
                        onChange={(e) =>
                          setContained((e.target as HTMLInputElement).checked ? [...contained, d.id] : contained.filter((x) => x !== d.id))
                        }
                      />
                      {d.id}
                    </label>
                  ))}
                </fieldset>
              )}
            </Form>
          )}
        </DialogButton>
      }
    >
      <Async state={defs} label="Loading permissions…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No {props.scope} permissions defined.</Empty>
          ) : (
            <>
              <TableScroll label={title}>
                <table className="d-table" aria-label={title}>
                  <thead>
                    <tr>
                      <th>Permission</th>
                      <th>Description</th>
                      <th>Contains (tree)</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((d) => (
                      <tr key={d.id}>
                        <td>
                          <code>{d.id}</code>
                        </td>
                        <td>{d.description ?? ''}</td>
                        <td className="d-tree">
                          <ul>
                            <PermissionTree definitions={p.items} id={d.id} />
                          </ul>
                        </td>
                        <td>
                          {!d.id.startsWith('$') && (
                            <ConfirmButton
                              label="Delete"
                              question={`Delete ${d.id}? Grants of it are removed.`}
                              onConfirm={async () => {
                                const input = { params: { permission_id: d.id }, body: {} };
                                await (team
                                  ? admin('permissions.deleteTeamDefinition', input)
                                  : admin('permissions.deleteProjectDefinition', input));
                                defs.reload();
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </>
          )
        }
      </Async>
    </Section>
  );
}

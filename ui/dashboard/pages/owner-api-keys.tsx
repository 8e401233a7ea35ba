import { isNotEnabled } from '../api.ts';
import { Async, ConfirmButton, Empty, Section, TableScroll, formatTime, useLoad, type useApi } from '../kit.tsx';
import type { AdminProject } from '../project.ts';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;

/** Whose keys a list shows: a user's (`/user-api-keys`) or a team's (`/team-api-keys`). */
export interface KeyOwner {
  type: 'user' | 'team';
  id: string;
}

/** What differs between the two owners: the operations, the project switch and the texts. */
const OWNERS = {
  user: {
    list: 'apiKeys.listUserKeys',
    update: 'apiKeys.updateUserKey',
    allowed: (project: AdminProject) => project.config.allow_user_api_keys !== false,
    off: 'User API keys are turned off for this project (Auth methods → User API keys).',
    empty: 'No API keys.',
    label: 'User API keys',
  },
  team: {
    list: 'apiKeys.listTeamKeys',
    update: 'apiKeys.updateTeamKey',
    allowed: (project: AdminProject) => project.config.allow_team_api_keys !== false,
    off: 'Team API keys are turned off for this project (Auth methods → Team API keys).',
    empty: "No API keys. Members with $manage_api_keys create them in the team's settings.",
    label: 'Team API keys',
  },
} as const;

/**
 * A user's or a team's API keys (`GET /user-api-keys?user_id=` / `GET /team-api-keys?team_id=`):
 * description, last four characters, created, expiry and status, with revoke. Not asked for while
 * the project has that kind of key off (the API would refuse, a failed request in the journey).
 */
export function OwnerApiKeys(props: { project: AdminProject; owner: KeyOwner; admin: Caller }) {
  const owner = OWNERS[props.owner.type];
  if (!owner.allowed(props.project)) {
    return (
      <Section title="API keys">
        <p className="d-muted">{owner.off}</p>
      </Section>
    );
  }
  return <KeyList owner={props.owner} admin={props.admin} />;
}

function KeyList(props: { owner: KeyOwner; admin: Caller }) {
  const owner = OWNERS[props.owner.type];
  const query = props.owner.type === 'user' ? { user_id: props.owner.id } : { team_id: props.owner.id };
  const keys = useLoad(() => props.admin(owner.list, { query }), [props.owner.type, props.owner.id]);
  return (
    <Section title="API keys">
      {isNotEnabled(keys.error) ? (
        <p className="d-muted">{owner.off}</p>
      ) : (
        <Async state={keys} label="Loading API keys…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>{owner.empty}</Empty>
            ) : (
              <TableScroll label={owner.label}>
                <table className="d-table d-cards" aria-label={owner.label}>
                  <thead>
                    <tr>
                      <th>Description</th>
                      <th>Key</th>
                      <th>Created</th>
                      <th>Expires</th>
                      <th>Status</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((k) => (
                      <tr key={k.id}>
                        <td data-label="Description">{k.description}</td>
                        <td data-label="Key">{typeof k.value === 'object' && k.value ? `…${k.value.last_four}` : '—'}</td>
                        <td data-label="Created">{formatTime(k.created_at_millis)}</td>
                        <td data-label="Expires">{formatTime(k.expires_at_millis ?? null)}</td>
                        <td data-label="Status">{k.manually_revoked_at_millis ? 'Revoked' : 'Active'}</td>
                        <td>
                          {!k.manually_revoked_at_millis && (
                            <ConfirmButton
                              label="Revoke"
                              question="Revoke this key? Requests signed with it fail from now on."
                              onConfirm={async () => {
                                await props.admin(owner.update, { params: { api_key_id: k.id }, body: { revoked: true } });
                                keys.reload();
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      )}
    </Section>
  );
}

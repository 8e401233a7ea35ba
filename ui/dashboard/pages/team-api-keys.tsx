import { isNotEnabled } from '../api.ts';
import { Async, ConfirmButton, Empty, Section, TableScroll, formatTime, useLoad, type useApi } from '../kit.tsx';
import type { AdminProject } from '../project.ts';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;

const TEAM_KEYS_OFF = 'Team API keys are turned off for this project (Auth methods → Team API keys).';

/**
 * A team's API keys (`GET /team-api-keys?team_id=`): description, last four characters, created,
 * expiry and status, with revoke. Not asked for while the project has team API keys off (the API
 * would refuse, a failed request in the journey).
 */
export function TeamApiKeys(props: { project: AdminProject; teamId: string; admin: Caller }) {
  if (props.project.config.allow_team_api_keys === false) {
    return (
      <Section title="API keys">
        <p className="d-muted">{TEAM_KEYS_OFF}</p>
      </Section>
    );
  }
  return <TeamKeyList teamId={props.teamId} admin={props.admin} />;
}

function TeamKeyList(props: { teamId: string; admin: Caller }) {
  const keys = useLoad(() => props.admin('apiKeys.listTeamKeys', { query: { team_id: props.teamId } }), [props.teamId]);
  return (
    <Section title="API keys">
      {isNotEnabled(keys.error) ? (
        <p className="d-muted">{TEAM_KEYS_OFF}</p>
      ) : (
        <Async state={keys} label="Loading API keys…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>No API keys. Members with $manage_api_keys create them in the team's settings.</Empty>
            ) : (
              <TableScroll label="Team API keys">
                <table className="d-table d-cards" aria-label="Team API keys">
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
                        <td>{k.description}</td>
                        <td>{typeof k.value === 'object' && k.value ? `…${k.value.last_four}` : '—'}</td>
                        <td>{formatTime(k.created_at_millis)}</td>
                        <td>{formatTime(k.expires_at_millis ?? null)}</td>
                        <td>{k.manually_revoked_at_millis ? 'Revoked' : 'Active'}</td>
                        <td>
                          {!k.manually_revoked_at_millis && (
                            <ConfirmButton
                              label="Revoke"
                              question="Revoke this key? Requests signed with it fail from now on."
                              onConfirm={async () => {
                                await props.admin('apiKeys.updateTeamKey', { params: { api_key_id: k.id }, body: { revoked: true } });
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

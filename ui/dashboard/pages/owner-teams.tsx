import { useState } from 'react';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import type { Page } from '../api.ts';
import { Async, ConfirmButton, Empty, Field, Form, Section, formatTime, useApi, useLoad, TableScroll } from '../kit.tsx';
import { isValidEmail } from '../validate.ts';

interface Team {
  id: string;
  display_name: string;
  created_at_millis?: number;
}
interface Member {
  user_id: string;
  display_name: string | null;
  primary_email: string | null;
  permission_ids: string[];
}
interface OwnedProject {
  id: string;
  display_name: string;
  owner_team_id: string | null;
}
interface Invitation {
  id: string;
  recipient_email: string;
  expires_at_millis: number;
}

/**
 * The owner's dashboard teams (teams of the internal project): projects belong to one of them,
 * and owners invite other owners through them (an invited email may sign up even when dashboard
 * sign-up is closed). Calls go to the internal project as the signed-in owner.
 */
export function OwnerTeamsPage() {
  const api = useApi();
  const teams = useLoad(() => api.internal('teams.list', { query: { user_id: 'me' } }), []);
  const me = useLoad(() => api.internal('users.getCurrent'), []);
  const projects = useLoad((): Promise<Page<OwnedProject>> => api.internal('projects.list'), []);
  const [name, setName] = useState('');
  return (
    <>
      <div className="d-top">
        <h1>Your teams</h1>
        <DialogButton label="New team" title="Create a dashboard team" icon={<Icon icon={Plus} />}>
          {(close) => (
            <Form
              label="Create a dashboard team"
              submit="Create team"
              success="Team created"
              onDone={close}
              disabled={!name.trim()}
              onSubmit={async () => {
                await api.internal('teams.create', { body: { display_name: name.trim(), creator_user_id: 'me' } });
                setName('');
                teams.reload();
              }}
            >
              <Field label="Team name" name="owner-team-name" value={name} onChange={setName} />
            </Form>
          )}
        </DialogButton>
      </div>
      <p className="d-muted">Projects belong to a team; every member of that team manages them. Invite other owners here.</p>
      <Async state={teams} label="Loading your teams…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>You are in no team yet. Use New team to create one.</Empty>
          ) : (
            <>
              {p.items.map((t) => (
                <OwnerTeam
                  key={t.id}
                  team={t}
                  me={me.data?.id ?? null}
                  projects={(projects.data?.items ?? []).filter((x) => x.owner_team_id === t.id)}
                  onLeft={() => {
                    teams.reload();
                    projects.reload();
                  }}
                />
              ))}
            </>
          )
        }
      </Async>
    </>
  );
}

/** Roles shown for the team permissions the dashboard grants (core/projects/seed-internal.ts defaults). */
function roleText(ids: string[]): string {
  const named = ids.map((id) => (id === 'team_admin' ? 'Admin' : id === 'team_member' ? 'Member' : id));
  return named.length ? named.join(', ') : 'Member';
}

function OwnerTeam(props: { team: Team; me: string | null; projects: OwnedProject[]; onLeft: () => void }) {
  const api = useApi();
  const me = props.me;
  const members = useLoad(
    (): Promise<Page<Member>> => api.internal('projects.listOwnerTeamMembers', { query: { team_id: props.team.id } }),
    [props.team.id],
  );
  const invitations = useLoad(
    (): Promise<Page<Invitation>> => api.internal('teamInvitations.list', { query: { team_id: props.team.id } }),
    [props.team.id],
  );
  const [email, setEmail] = useState('');
  const problem = email && !isValidEmail(email.trim()) ? 'Please enter a valid email address.' : null;
  const remove = async (userId: string) => {
    await api.internal('teams.removeMember', { params: { team_id: props.team.id, user_id: userId }, body: {} });
    if (userId === me) props.onLeft();
    else members.reload();
  };
  return (
    <Section
      title={props.team.display_name}
      actions={
        <DialogButton label="Invite an owner" title={`Invite an owner to ${props.team.display_name}`} icon={<Icon icon={Plus} />}>
          {(close) => (
            <Form
              onDone={close}
              success="Invitation sent"
              label={`Invite an owner to ${props.team.display_name}`}
              submit="Send invitation"
              disabled={!email.trim() || !!problem}
              onSubmit={async () => {
                await api.internal('teamInvitations.send', {
                  body: {
                    team_id: props.team.id,
                    email: email.trim(),
                    callback_url: `${location.origin}${api.url('/handler/team-invitation')}`,
                  },
                });
                setEmail('');
                invitations.reload();
              }}
            >
              <Field
                label="Email of the new owner"
                name="owner-invite-email"
                type="email"
                value={email}
                onChange={setEmail}
                error={problem}
                hint="Inviting needs the $invite_members permission in this team. The invited email may sign up to the dashboard even while sign-up is closed."
              />
            </Form>
          )}
        </DialogButton>
      }
    >
      <p className="d-muted" data-testid={`team-projects-${props.team.id}`}>
        {props.projects.length === 0 ? (
          'This team owns no project yet.'
        ) : (
          <>
            Every member below can manage{' '}
            {props.projects.map((x, i) => (
              <span key={x.id}>
                {i ? ', ' : ''}
                <strong>{x.display_name}</strong>
              </span>
            ))}
            . Removing a member takes that access away at once.
          </>
        )}
      </p>
      <h3>Members</h3>
      <Async state={members} label="Loading members…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No members.</Empty>
          ) : (
            <TableScroll label={`Members of ${props.team.display_name}`}>
              <table className="d-table d-cards" aria-label={`Members of ${props.team.display_name}`}>
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Name</th>
                    <th>Role</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((m) => (
                    <tr key={m.user_id}>
                      <td data-label="Email">
                        {m.primary_email ?? '—'}
                        {m.user_id === me ? ' (you)' : ''}
                      </td>
                      <td data-label="Name">{m.display_name ?? '—'}</td>
                      <td data-label="Role">{roleText(m.permission_ids)}</td>
                      <td>
                        {m.user_id === me ? (
                          <ConfirmButton
                            label="Leave team"
                            question={`Leave ${props.team.display_name}? You lose access to its projects.`}
                            confirmLabel="Yes, leave"
                            onConfirm={() => remove(m.user_id)}
                          />
                        ) : (
                          <ConfirmButton
                            label="Remove"
                            question={`Remove ${m.primary_email ?? m.display_name ?? 'this member'} from ${props.team.display_name}? They lose access to its projects.`}
                            onConfirm={() => remove(m.user_id)}
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
      <h3>Invitations</h3>
      <Async state={invitations} label="Loading invitations…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No pending invitations.</Empty>
          ) : (
            <TableScroll label={`Invitations to ${props.team.display_name}`}>
              <table className="d-table" aria-label={`Invitations to ${props.team.display_name}`}>
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Expires</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((i) => (
                    <tr key={i.id}>
                      <td>{i.recipient_email}</td>
                      <td>{formatTime(i.expires_at_millis)}</td>
                      <td>
                        <ConfirmButton
                          label="Revoke"
                          question="Revoke this invitation?"
                          onConfirm={async () => {
                            await api.internal('teamInvitations.revoke', {
                              params: { id: i.id },
                              query: { team_id: props.team.id },
                              body: {},
                            });
                            invitations.reload();
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
    </Section>
  );
}

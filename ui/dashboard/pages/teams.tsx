import { useState } from 'react';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import { Mail, Plus, Trash2 } from 'lucide';
import { Icon } from '../../icon.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import { ConfirmDialogButton } from '../controls/confirm-dialog.tsx';
import { Combobox } from '../controls/combobox.tsx';
import { MetadataEditor } from './metadata-editor.tsx';
import { OwnerApiKeys } from './owner-api-keys.tsx';
import { Async, ConfirmButton, CopyValue, Empty, Field, Form, Section, formatTime, useApi, useLoad, TableScroll } from '../kit.tsx';
import { Link, useRouter } from '../router.tsx';
import { MemberTeam } from './user.tsx';
import type { WireUser } from './users.tsx';
import { isValidEmail } from '../validate.ts';
import { TeamSsoSections } from './team-sso.tsx';

interface WireTeam {
  id: string;
  display_name: string;
  created_at_millis: number;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
}
interface Profile {
  team_id: string;
  user_id: string;
  display_name: string | null;
  user?: WireUser;
}

/** Teams table (`GET /teams`) and create form (`POST /teams`). */
export function TeamsPage(props: { project: AdminProject }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const { navigate } = useRouter();
  const teams = useLoad(() => admin('teams.list') as Promise<Page<WireTeam>>, [props.project.id]);
  const [name, setName] = useState('');
  return (
    <>
      <div className="d-top">
        <h1>Teams</h1>
      </div>
      <Section
        title="All teams"
        actions={
          <DialogButton label="New team" title="Create a team" icon={<Icon icon={Plus} />}>
            {() => (
              <Form
                label="Create a team"
                submit="Create team"
                success="Team created"
                disabled={!name.trim()}
                onSubmit={async () => {
                  const team = await admin('teams.create', { body: { display_name: name.trim() } });
                  navigate(`/projects/${props.project.id}/teams/${team.id}`);
                }}
              >
                <Field label="Team name" name="team-name" value={name} onChange={setName} />
              </Form>
            )}
          </DialogButton>
        }
      >
        <Async state={teams} label="Loading teams…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>No teams yet. Use New team to create one, or let users create their own (Auth methods).</Empty>
            ) : (
              <TableScroll label="Teams">
                <table className="d-table" aria-label="Teams">
                  <thead>
                    <tr>
                      <th>Team</th>
                      <th>ID</th>
                      <th>Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {p.items.map((t) => (
                      <tr key={t.id}>
                        <td>
                          <Link to={`/projects/${props.project.id}/teams/${t.id}`}>{t.display_name}</Link>
                        </td>
                        <td>
                          <CopyValue value={t.id} label={`id of ${t.display_name}`} />
                        </td>
                        <td>{formatTime(t.created_at_millis)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </Async>
      </Section>
    </>
  );
}

/** One team: profile, members with their permissions, add member, invitations, API keys, metadata, delete. */
export function TeamPage(props: { project: AdminProject; teamId: string }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const { navigate } = useRouter();
  const team = useLoad(() => admin('teams.get', { params: { team_id: props.teamId } }) as Promise<WireTeam>, [props.teamId]);
  const members = useLoad(
    (): Promise<Page<Profile>> => admin('teams.listMemberProfiles', { query: { team_id: props.teamId } }),
    [props.teamId],
  );
  const definitions = useLoad(() => admin('permissions.listTeamDefinitions'), []);
  const invitations = useLoad(
    (): Promise<Page<{ id: string; recipient_email: string; expires_at_millis: number }>> =>
      admin('teamInvitations.list', { query: { team_id: props.teamId } }),
    [props.teamId],
  );
  const [search, setSearch] = useState('');
  const [inviteEmail, setInviteEmail] = useState('');
  const candidates = useLoad(
    () =>
      search.trim() ? admin('users.list', { query: { limit: 10, query: search.trim() } }) : Promise.resolve({ items: [] as WireUser[] }),
    [search],
  );
  const memberIds = new Set((members.data?.items ?? []).map((m) => m.user_id));
  const name = team.data?.display_name ?? '';
  return (
    <>
      <div className="d-top">
        <h1>{team.data?.display_name ?? 'Team'}</h1>
        <Link to={`/projects/${props.project.id}/teams`}>All teams</Link>
      </div>
      <Async state={team} label="Loading team…">
        {(t) => (
          <TeamName
            team={t}
            members={members.data?.items.length}
            save={async (body) => {
              await admin('teams.update', { params: { team_id: t.id }, body });
              team.reload();
            }}
          />
        )}
      </Async>
      <Section title="Members and their permissions">
        <Async state={members} label="Loading members…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>No members yet. Search for a user below to add one, or invite someone by email.</Empty>
            ) : (
              <div>
                {p.items.map((m) => (
                  <MemberTeam
                    key={m.user_id}
                    project={props.project}
                    team={{ id: props.teamId, display_name: name }}
                    user={{ id: m.user_id }}
                    admin={admin}
                    definitions={definitions}
                    onLeft={members.reload}
                    title={
                      <span>
                        <Link to={`/projects/${props.project.id}/users/${m.user_id}`}>
                          {m.user?.display_name || m.user?.primary_email || m.display_name || m.user_id}
                        </Link>
                        {m.user?.display_name && m.user.primary_email ? <span className="d-muted"> · {m.user.primary_email}</span> : null}
                      </span>
                    }
                  />
                ))}
              </div>
            )
          }
        </Async>
        <Combobox
          label="Add a member"
          placeholder="Search users by email or name"
          query={search}
          onQuery={setSearch}
          loading={candidates.loading}
          emptyText="No user outside the team matches."
          options={(candidates.data?.items ?? [])
            .filter((u) => !memberIds.has(u.id))
            .map((u) => ({
              value: u.id,
              label: u.display_name || u.primary_email || u.id,
              ...(u.display_name && u.primary_email ? { hint: u.primary_email } : {}),
            }))}
          onPick={async (userId) => {
            await admin('teams.addMember', { params: { team_id: props.teamId, user_id: userId }, body: {} });
            members.reload();
          }}
        />
      </Section>
      <Section
        title="Invitations"
        description="The invitee gets an email with a link to this project's hosted team-invitation page."
        actions={
          <DialogButton label="Invite" title="Invite by email" icon={<Icon icon={Mail} size={16} />}>
            {(close) => (
              <Form
                label="Invite by email"
                submit="Send invitation"
                success="Invitation sent"
                onDone={close}
                disabled={!isValidEmail(inviteEmail.trim())}
                disabledReason="Enter a valid email address to invite."
                onSubmit={async () => {
                  await admin('teamInvitations.send', {
                    body: {
                      team_id: props.teamId,
                      email: inviteEmail.trim(),
                      callback_url: `${location.origin}${api.url(`/projects/${props.project.id}/handler/team-invitation`)}`,
                    },
                  });
                  setInviteEmail('');
                  invitations.reload();
                }}
              >
                <Field
                  label="Invitee email"
                  name="invite-email"
                  type="email"
                  value={inviteEmail}
                  onChange={setInviteEmail}
                  error={inviteEmail && !isValidEmail(inviteEmail.trim()) ? 'Please enter a valid email address.' : null}
                />
              </Form>
            )}
          </DialogButton>
        }
      >
        <Async state={invitations} label="Loading invitations…">
          {(p) =>
            p.items.length === 0 ? (
              <Empty>No pending invitations.</Empty>
            ) : (
              <TableScroll label="Invitations">
                <table className="d-table" aria-label="Invitations">
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
                              await admin('teamInvitations.revoke', { params: { id: i.id }, query: { team_id: props.teamId }, body: {} });
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
      <OwnerApiKeys project={props.project} owner={{ type: 'team', id: props.teamId }} admin={admin} />
      <Async state={team} label="Loading metadata…">
        {(t) => (
          <MetadataEditor
            key={t.id}
            idPrefix="team-meta"
            values={t}
            save={async (body) => {
              await admin('teams.update', { params: { team_id: t.id }, body });
              team.reload();
            }}
          />
        )}
      </Async>
      <TeamSsoSections call={admin} teamId={props.teamId} />
      <Section title="Danger zone">
        <ConfirmDialogButton
          label="Delete team"
          title="Delete this team"
          icon={<Icon icon={Trash2} size={16} />}
          confirmLabel="Delete team"
          typeToConfirm={name || props.teamId}
          onConfirm={async () => {
            await admin('teams.delete', { params: { team_id: props.teamId }, body: {} });
            navigate(`/projects/${props.project.id}/teams`);
          }}
        >
          The team, its memberships and their permissions, its invitations and its API keys are deleted. The members' accounts stay. This
          cannot be undone.
        </ConfirmDialogButton>
      </Section>
    </>
  );
}

function TeamName(props: {
  team: WireTeam;
  members: number | undefined;
  save: (body: { display_name: string; profile_image_url: string | null }) => Promise<void>;
}) {
  const [name, setName] = useState(props.team.display_name);
  const [image, setImage] = useState(props.team.profile_image_url ?? '');
  return (
    <Section title="Profile">
      <p className="d-muted">
        ID <CopyValue value={props.team.id} label="team ID" /> · created {formatTime(props.team.created_at_millis)}
        {props.members !== undefined ? ` · ${props.members} member${props.members === 1 ? '' : 's'}` : ''}
      </p>
      <Form
        label="Team profile"
        submit="Save"
        success="Team saved"
        disabled={!name.trim()}
        onSubmit={() => props.save({ display_name: name.trim(), profile_image_url: image.trim() || null })}
      >
        <Field
          label="Team name"
          name="team-display-name"
          value={name}
          onChange={setName}
          error={!name.trim() ? 'The name must not be empty.' : null}
        />
        <Field label="Profile image URL" name="team-profile-image" value={image} onChange={setImage} />
      </Form>
    </Section>
  );
}

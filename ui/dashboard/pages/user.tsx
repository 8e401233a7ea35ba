import { OwnerApiKeys } from './owner-api-keys.tsx';
import { useState, type ReactNode } from 'react';
import { serialize as serializeCookie } from 'cookie';
import type { Page } from '../api.ts';
import type { AdminProject } from '../project.ts';
import {
  Async,
  ConfirmButton,
  Empty,
  ErrorBox,
  Field,
  Form,
  Section,
  Toggle,
  formatTime,
  useAction,
  useApi,
  useLoad,
  type Loaded,
  TableScroll,
  CopyValue,
} from '../kit.tsx';
import { Link, useRouter } from '../router.tsx';
import { isValidEmail } from '../validate.ts';
import type { WireUser } from './users.tsx';
import { UserPasskeys } from './user-passkeys.tsx';
import { UserTwoFactor } from './user-two-factor.tsx';
import { MetadataEditor } from './metadata-editor.tsx';
import { Combobox } from '../controls/combobox.tsx';
import { DialogButton } from '../controls/dialog.tsx';
import { Plus } from 'lucide';
import { Icon } from '../../icon.tsx';
import { UserOAuthLinks } from './user-oauth-links.tsx';
import { UserActions } from './user-actions.tsx';

type Caller = ReturnType<ReturnType<typeof useApi>['admin']>;
interface Team {
  id: string;
  display_name: string;
}
interface Definition {
  id: string;
  description?: string | null;
  contained_permission_ids: string[];
}

/** One user: fields, metadata, contact channels, sessions, teams, permissions, API keys, passkeys, two-factor, impersonation, delete. */
export function UserPage(props: { project: AdminProject; userId: string }) {
  const api = useApi();
  const admin = api.admin(props.project.id);
  const user = useLoad(() => admin('users.get', { params: { user_id: props.userId } }), [props.project.id, props.userId]);
  return (
    <>
      <div className="d-top">
        <h1>{user.data ? user.data.display_name || user.data.primary_email || 'User' : 'User'}</h1>
        <Link to={`/projects/${props.project.id}/users`}>All users</Link>
      </div>
      <Async state={user} label="Loading user…">
        {(u) => <UserBody project={props.project} user={u} admin={admin} reload={user.reload} />}
      </Async>
    </>
  );
}

function UserBody(props: { project: AdminProject; user: WireUser; admin: Caller; reload: () => void }) {
  const { user, admin } = props;
  const api = useApi();
  const { navigate } = useRouter();
  const impersonate = useAction();
  // Bumped by an action that ends sessions, so the sessions table asks again.
  const [epoch, setEpoch] = useState(0);
  const changed = () => {
    setEpoch((n) => n + 1);
    props.reload();
  };
  return (
    <>
      <UserStatus user={user} />
      <FieldsEditor user={user} admin={admin} reload={props.reload} />
      <Sessions key={`s${epoch}`} user={user} admin={admin} />
      <ContactChannels user={user} admin={admin} />
      <UserOAuthLinks user={user} admin={admin} />
      <UserPasskeys user={user} admin={admin} onChanged={props.reload} />
      <UserTwoFactor user={user} admin={admin} onChanged={props.reload} />
      <TeamsAndPermissions project={props.project} user={user} admin={admin} />
      <ProjectPermissions user={user} admin={admin} />
      <OwnerApiKeys project={props.project} owner={{ type: 'user', id: user.id }} admin={admin} />
      <MetadataEditor
        idPrefix="user-meta"
        values={user}
        save={async (body) => {
          await admin('users.update', { params: { user_id: user.id }, body });
          props.reload();
        }}
      />
      <UserActions
        user={user}
        admin={admin}
        onChanged={changed}
        onDeleted={() => navigate(`/projects/${props.project.id}/users`)}
        impersonate={
          <>
            <button
              type="button"
              className="d-btn"
              disabled={impersonate.busy}
              onClick={() =>
                impersonate.run(async () => {
                  const session = await admin('sessions.create', {
                    body: { user_id: user.id, expires_in_millis: 3_600_000, is_impersonation: true },
                  });
                  openAsUser(api.url(`/projects/${props.project.id}/handler/account-settings`), props.project.id, session);
                })
              }
            >
              Impersonate
            </button>
            <ErrorBox error={impersonate.error} />
          </>
        }
      />
    </>
  );
}

/** The user at a glance: how they sign in and what state they are in, as badges. */
function UserStatus(props: { user: WireUser }) {
  const u = props.user;
  const badges: string[] = [];
  if (u.is_anonymous) badges.push('Anonymous');
  if (u.restricted_by_admin === true) badges.push('Restricted');
  badges.push(u.primary_email ? (u.primary_email_verified ? 'Email verified' : 'Email not verified') : 'No email');
  if (u.has_password) badges.push('Password');
  if (u.passkey_auth_enabled === true) badges.push('Passkey sign-in');
  badges.push(u.requires_totp_mfa ? 'Two-factor on' : 'Two-factor off');
  if (u.otp_auth_enabled === true) badges.push('Magic link / OTP');
  const oauth = Array.isArray(u.oauth_providers) ? (u.oauth_providers as Array<{ id: string }>) : [];
  if (oauth.length) badges.push(`${oauth.length} linked account${oauth.length === 1 ? '' : 's'}`);
  return (
    <section className="d-card d-user-status" aria-label="Summary">
      <div className="d-row" style={{ alignItems: 'center', gap: 12 }}>
        {typeof u.profile_image_url === 'string' && u.profile_image_url ? (
          <img src={u.profile_image_url} alt="" width={40} height={40} style={{ borderRadius: '50%' }} />
        ) : null}
        <div style={{ minWidth: 0 }}>
          <div style={{ overflowWrap: 'anywhere' }}>
            <strong>{u.display_name || u.primary_email || 'Unnamed user'}</strong>
            {u.display_name && u.primary_email ? <span className="d-muted"> · {u.primary_email}</span> : null}
          </div>
          <ul className="d-badges" aria-label="Status" data-testid="user-badges">
            {badges.map((b) => (
              <li key={b} className="d-badge">
                {b}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

/**
 * Opens the project's hosted account page as the impersonated user: the hosted pages read the
 * SDK's refresh cookie `stack-refresh-<project>` (same origin), set here first; they get an access
 * token from it. The dashboard's own cookies (`…-internal`) are left alone.
 */
export function openAsUser(url: string, projectId: string, session: { access_token: string; refresh_token: string }): void {
  document.cookie = serializeCookie(`stack-refresh-${projectId}`, session.refresh_token, { maxAge: 3600, path: '/', sameSite: 'lax' });
  window.open(url, '_blank', 'noopener');
}

function FieldsEditor(props: { user: WireUser; admin: Caller; reload: () => void }) {
  const { user } = props;
  const [displayName, setDisplayName] = useState(user.display_name ?? '');
  const [email, setEmail] = useState(user.primary_email ?? '');
  const [verified, setVerified] = useState(!!user.primary_email_verified);
  const [image, setImage] = useState((user.profile_image_url as string | null) ?? '');
  const emailError = email && !isValidEmail(email.trim()) ? 'Please enter a valid email address.' : null;
  const [saved, setSaved] = useState(false);
  return (
    <Section title="Profile">
      <p className="d-muted">
        ID <CopyValue value={user.id} label="user ID" /> · signed up {formatTime(user.signed_up_at_millis)} · last active{' '}
        {formatTime(user.last_active_at_millis ?? null)}
        {user.has_password ? ' · has a password' : ''}
      </p>
      <Form
        label="Profile"
        submit="Save profile"
        disabled={!!emailError}
        disabledReason="Fix the email address above first."
        onSubmit={async () => {
          setSaved(false);
          await props.admin('users.update', {
            params: { user_id: user.id },
            body: {
              display_name: displayName.trim() || null,
              primary_email: email.trim() || null,
              primary_email_verified: verified,
              profile_image_url: image.trim() || null,
            },
          });
          setSaved(true);
          props.reload();
        }}
      >
        <Field
          label="Display name"
          name="display_name"
          value={displayName}
          onChange={(v) => {
            setDisplayName(v);
            setSaved(false);
          }}
        />
        <Field label="Primary email" name="primary_email" type="email" value={email} onChange={setEmail} error={emailError} />
        <Toggle label="Email verified" checked={verified} onChange={setVerified} />
        <Field label="Profile image URL" name="profile_image_url" value={image} onChange={setImage} />
      </Form>
      {saved && (
        <p className="d-ok" role="status">
          Saved.
        </p>
      )}
    </Section>
  );
}

function ContactChannels(props: { user: WireUser; admin: Caller }) {
  const channels = useLoad(
    (): Promise<Page<{ id: string; value: string; is_primary: boolean; is_verified: boolean; used_for_auth: boolean }>> =>
      props.admin('contactChannels.list', { query: { user_id: props.user.id } }),
    [props.user.id],
  );
  const [value, setValue] = useState('');
  const problem = value && !isValidEmail(value.trim()) ? 'Please enter a valid email address.' : null;
  return (
    <Section
      title="Contact channels"
      actions={
        <DialogButton label="Add email" title="Add a contact channel" primary={false} icon={<Icon icon={Plus} size={16} />}>
          {(close) => (
            <Form
              label="Add a contact channel"
              submit="Add email"
              success="Email added"
              onDone={close}
              disabled={!value.trim() || !!problem}
              onSubmit={async () => {
                await props.admin('contactChannels.create', {
                  body: { user_id: props.user.id, type: 'email', value: value.trim(), used_for_auth: false, is_verified: false },
                });
                setValue('');
                channels.reload();
              }}
            >
              <Field label="Email" name="channel-email" type="email" value={value} onChange={setValue} error={problem} />
            </Form>
          )}
        </DialogButton>
      }
    >
      <Async state={channels} label="Loading contact channels…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No contact channels.</Empty>
          ) : (
            <TableScroll label="Email addresses">
              <table className="d-table" aria-label="Email addresses">
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Primary</th>
                    <th>Verified</th>
                    <th>Used for sign-in</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((c) => (
                    <tr key={c.id}>
                      <td>{c.value}</td>
                      <td>{c.is_primary ? 'yes' : ''}</td>
                      <td>{c.is_verified ? 'yes' : 'no'}</td>
                      <td>{c.used_for_auth ? 'yes' : 'no'}</td>
                      <td>
                        <ConfirmButton
                          label="Remove"
                          question="Remove this contact channel?"
                          onConfirm={async () => {
                            await props.admin('contactChannels.delete', {
                              params: { user_id: props.user.id, contact_channel_id: c.id },
                              body: {},
                            });
                            channels.reload();
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

/**
 * Where a session was last used ("Berlin, BE, DE"), or a dash: places come only from the
 * operator's GeoIP database (GATEHOUSE_GEOIP_DATABASE), never from a network service.
 */
function sessionPlace(place: { cityName: string | null; regionCode: string | null; countryCode: string | null } | undefined): string {
  return place ? [place.cityName, place.regionCode, place.countryCode].filter(Boolean).join(', ') || '—' : '—';
}

function Sessions(props: { user: WireUser; admin: Caller }) {
  const sessions = useLoad(() => props.admin('sessions.list', { query: { user_id: props.user.id } }), [props.user.id]);
  return (
    <Section title="Sessions">
      <Async state={sessions} label="Loading sessions…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No active sessions.</Empty>
          ) : (
            <TableScroll label="Sessions">
              <table className="d-table" aria-label="Sessions">
                <thead>
                  <tr>
                    <th>Session</th>
                    <th>Device</th>
                    <th>Place</th>
                    <th>Created</th>
                    <th>Last used</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.items.map((s) => (
                    <tr key={s.id}>
                      <td>
                        <code>{s.id.slice(0, 8)}</code>
                        {s.is_impersonation ? <span className="d-badge">impersonation</span> : null}
                      </td>
                      <td title={s.user_agent ?? undefined}>{[s.browser, s.os].filter(Boolean).join(' on ') || 'Unknown'}</td>
                      <td>{sessionPlace(s.last_used_at_end_user_ip_info)}</td>
                      <td>{formatTime(s.created_at)}</td>
                      <td>{formatTime(s.last_used_at ?? null)}</td>
                      <td>
                        <ConfirmButton
                          label="Revoke"
                          question="Sign this session out?"
                          onConfirm={async () => {
                            await props.admin('sessions.delete', { params: { id: s.id }, query: { user_id: props.user.id }, body: {} });
                            sessions.reload();
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

function TeamsAndPermissions(props: { project: AdminProject; user: WireUser; admin: Caller }) {
  const { admin, user } = props;
  const teams = useLoad(() => admin('teams.list', { query: { user_id: user.id } }), [user.id]);
  const allTeams = useLoad(() => admin('teams.list'), []);
  const definitions = useLoad(() => admin('permissions.listTeamDefinitions'), []);
  const [teamQuery, setTeamQuery] = useState('');
  const [newTeam, setNewTeam] = useState('');
  const join = useAction();
  return (
    <Section
      title="Teams and team permissions"
      actions={
        <DialogButton label="New team" title="Create a team with this user" primary={false} icon={<Icon icon={Plus} size={16} />}>
          {(close) => (
            <Form
              label="Create a team with this user"
              submit="Create team"
              success="Team created"
              onDone={close}
              disabled={!newTeam.trim()}
              onSubmit={async () => {
                await admin('teams.create', { body: { display_name: newTeam.trim(), creator_user_id: user.id } });
                setNewTeam('');
                teams.reload();
                allTeams.reload();
              }}
            >
              <Field label="New team name" name="new-team-name" value={newTeam} onChange={setNewTeam} />
            </Form>
          )}
        </DialogButton>
      }
    >
      <Async state={teams} label="Loading teams…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>Not a member of any team.</Empty>
          ) : (
            <div>
              {p.items.map((t) => (
                <MemberTeam
                  key={t.id}
                  project={props.project}
                  team={t}
                  user={user}
                  admin={admin}
                  definitions={definitions}
                  onLeft={teams.reload}
                />
              ))}
            </div>
          )
        }
      </Async>
      <Combobox
        label="Add to a team"
        placeholder="Search teams by name"
        query={teamQuery}
        onQuery={setTeamQuery}
        emptyText="No other team matches."
        options={(allTeams.data?.items ?? [])
          .filter((t) => !teams.data?.items.some((m) => m.id === t.id))
          .filter((t) => t.display_name.toLowerCase().includes(teamQuery.trim().toLowerCase()))
          .slice(0, 20)
          .map((t) => ({ value: t.id, label: t.display_name }))}
        onPick={(teamId) =>
          join.run(async () => {
            await admin('teams.addMember', { params: { team_id: teamId, user_id: user.id }, body: {} });
            teams.reload();
          })
        }
      />
      <ErrorBox error={join.error} />
    </Section>
  );
}

/** A membership: the user's permissions in one team, with grant and revoke. */
export function MemberTeam(props: {
  project: AdminProject;
  team: Team;
  user: { id: string; display_name?: string | null; primary_email?: string | null };
  admin: Caller;
  definitions: Loaded<Page<Definition>>;
  onLeft: () => void;
  title?: ReactNode;
}) {
  const { admin, team, user } = props;
  const perms = useLoad(
    () => admin('permissions.listTeam', { query: { team_id: team.id, user_id: user.id, recursive: false } }),
    [team.id, user.id],
  );
  const [grant, setGrant] = useState('');
  const action = useAction();
  const held = new Set((perms.data?.items ?? []).map((p) => p.id));
  return (
    <div className="d-card" style={{ padding: 10 }} aria-label={`Team ${team.display_name}`} role="group">
      <div className="d-card-head">
        <strong>{props.title ?? <Link to={`/projects/${props.project.id}/teams/${team.id}`}>{team.display_name}</Link>}</strong>
        <ConfirmButton
          label="Remove from team"
          question="Remove the membership and its permissions?"
          onConfirm={async () => {
            await admin('teams.removeMember', { params: { team_id: team.id, user_id: user.id }, body: {} });
            props.onLeft();
          }}
        />
      </div>
      <Async state={perms} label="Loading permissions…">
        {(p) =>
          p.items.length === 0 ? (
            <p className="d-muted">No team permissions.</p>
          ) : (
            <ul aria-label="Team permissions">
              {p.items.map((x) => (
                <li key={x.id}>
                  <code>{x.id}</code>{' '}
                  <ConfirmButton
                    label="Revoke"
                    question={`Revoke ${x.id}?`}
                    onConfirm={async () => {
                      await admin('permissions.revokeTeam', {
                        params: { team_id: team.id, user_id: user.id, permission_id: x.id },
                        body: {},
                      });
                      perms.reload();
                    }}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </Async>
      <div className="d-row">
        <select
          aria-label={`Permission to grant in ${team.display_name}`}
          value={grant}
          onChange={(e) => setGrant((e.target as HTMLSelectElement).value)}
        >
          <option value="">Grant a permission…</option>
          {(props.definitions.data?.items ?? [])
            .filter((d) => !held.has(d.id))
            .map((d) => (
              <option key={d.id} value={d.id}>
                {d.id}
              </option>
            ))}
        </select>
        <button
          type="button"
          className="d-btn"
          disabled={!grant || action.busy}
          onClick={() =>
            action.run(async () => {
              await admin('permissions.grantTeam', { params: { team_id: team.id, user_id: user.id, permission_id: grant }, body: {} });
              setGrant('');
              perms.reload();
            })
          }
        >
          Grant
        </button>
      </div>
      <ErrorBox error={action.error} />
    </div>
  );
}

function ProjectPermissions(props: { user: WireUser; admin: Caller }) {
  const { admin, user } = props;
  const perms = useLoad(() => admin('permissions.listProject', { query: { user_id: user.id, recursive: false } }), [user.id]);
  const definitions = useLoad(() => admin('permissions.listProjectDefinitions'), []);
  const [grant, setGrant] = useState('');
  const action = useAction();
  const held = new Set((perms.data?.items ?? []).map((p) => p.id));
  return (
    <Section title="Project permissions">
      <Async state={perms} label="Loading permissions…">
        {(p) =>
          p.items.length === 0 ? (
            <Empty>No project permissions.</Empty>
          ) : (
            <ul>
              {p.items.map((x) => (
                <li key={x.id}>
                  <code>{x.id}</code>{' '}
                  <ConfirmButton
                    label="Revoke"
                    question={`Revoke ${x.id}?`}
                    onConfirm={async () => {
                      await admin('permissions.revokeProject', { params: { user_id: user.id, permission_id: x.id }, body: {} });
                      perms.reload();
                    }}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </Async>
      <div className="d-row">
        <select aria-label="Project permission to grant" value={grant} onChange={(e) => setGrant((e.target as HTMLSelectElement).value)}>
          <option value="">Grant a permission…</option>
          {(definitions.data?.items ?? [])
            .filter((d) => !held.has(d.id))
            .map((d) => (
              <option key={d.id} value={d.id}>
                {d.id}
              </option>
            ))}
        </select>
        <button
          type="button"
          className="d-btn"
          disabled={!grant || action.busy}
          onClick={() =>
            action.run(async () => {
              await admin('permissions.grantProject', { params: { user_id: user.id, permission_id: grant }, body: {} });
              setGrant('');
              perms.reload();
            })
          }
        >
          Grant
        </button>
      </div>
      <ErrorBox error={action.error} />
    </Section>
  );
}

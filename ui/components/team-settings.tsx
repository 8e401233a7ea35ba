import { useEffect, useState, type FormEvent } from 'react';
import { useApp } from '../../sdk/react.tsx';
import type { Team, TeamInvitation, TeamMemberProfile } from '../../sdk/objects.ts';
import type { User } from '../../sdk/user.ts';
import { Field, FormError, Success, emailProblem, useAction } from '../common.tsx';
import { useT } from '../i18n/index.tsx';
import { TeamSso } from './team-sso.tsx';

/**
 * One team's management in account settings, as upstream's team settings components offer:
 * members (remove others, with `$remove_members`), invitations (send with `$invite_members`,
 * revoke), rename (`$update_team`) and delete (`$delete_team`), and SSO connections (`$manage_sso`, team-sso.tsx). What the user may not do answers
 * the server's TEAM_PERMISSION_REQUIRED, shown as the form's error.
 */
export function TeamManagement(props: { team: Team; user: User; onDeleted: () => void }) {
  const app = useApp();
  const t = useT();
  const team = props.team;
  const [members, setMembers] = useState<TeamMemberProfile[] | null>(null);
  const [invitations, setInvitations] = useState<TeamInvitation[] | null>(null);
  const [tick, setTick] = useState(0);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [name, setName] = useState(team.displayName);
  const [done, setDone] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const load = useAction();
  const { busy, error, run } = useAction();
  useEffect(() => {
    let stale = false;
    void load.run(async () => {
      const m = await team.listUsers();
      if (!stale) setMembers(m);
      // Listing invitations needs $read_members too; a member without it still sees the members.
      const i = await team.listInvitations().catch(() => []);
      if (!stale) setInvitations(i);
    });
    return () => {
      stale = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [team.id, tick]);
  const reload = () => setTick((n) => n + 1);
  const act = (fn: () => Promise<unknown>, message?: string) =>
    run(async () => {
      setDone(null);
      await fn();
      if (message) setDone(message);
      reload();
    });
  const invite = async (e: FormEvent) => {
    e.preventDefault();
    const problem = emailProblem(email);
    setEmailError(problem ? t(problem) : null);
    if (problem) return;
    await act(
      async () => {
        await team.inviteUser({ email: email.trim(), callbackUrl: app.absoluteUrl(app.urls.teamInvitation) });
        setEmail('');
      },
      t('teamSettings.invited', { email: email.trim() }),
    );
  };
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    await act(() => team.update({ displayName: name.trim() }), t('teamSettings.renamed'));
  };
  return (
    <div className="gh-team" data-testid={`team-settings-${team.id}`}>
      <h3>{t('teamSettings.members')}</h3>
      <FormError error={load.error} />
      {members === null && !load.error ? <p className="gh-muted">{t('common.loading')}</p> : null}
      {members ? (
        <ul className="gh-list" aria-label={t('teamSettings.membersOf', { team: team.displayName })}>
          {members.map((m) => (
            <li key={m.userId}>
              <span>
                {m.displayName ?? t('teamSettings.unnamed')}
                {m.userId === props.user.id ? ` ${t('teamSettings.you')}` : ''}
              </span>
              {m.userId !== props.user.id ? (
                <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => act(() => team.removeUser(m.userId))}>
                  {t('teamSettings.remove')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {invitations && invitations.length > 0 ? (
        <ul className="gh-list" aria-label={t('teamSettings.invitations')}>
          {invitations.map((i) => (
            <li key={i.id}>
              <span>
                {i.recipientEmail ?? '—'} <span className="gh-muted">{t('teamSettings.pending')}</span>
              </span>
              <button type="button" className="gh-btn" disabled={busy} onClick={() => act(() => i.revoke())}>
                {t('teamSettings.revoke')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={invite} noValidate aria-label={t('teamSettings.inviteLabel', { team: team.displayName })}>
        <Field
          label={t('teamSettings.inviteEmail')}
          type="email"
          name="invite-email"
          autoComplete="off"
          value={email}
          onChange={setEmail}
          error={emailError}
        />
        <button type="submit" className="gh-btn" disabled={busy}>
          {t('teamSettings.invite')}
        </button>
      </form>
      <form onSubmit={rename} noValidate aria-label={t('teamSettings.renameLabel', { team: team.displayName })}>
        <Field label={t('teamSettings.name')} name="team-display-name" value={name} onChange={setName} />
        <button type="submit" className="gh-btn" disabled={busy || !name.trim() || name.trim() === team.displayName}>
          {t('teamSettings.rename')}
        </button>
      </form>
      <TeamSso team={team} user={props.user} />
      {done ? <Success>{done}</Success> : null}
      <FormError error={error} />
      <div className="gh-row">
        {!confirmDelete ? (
          <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => setConfirmDelete(true)}>
            {t('teamSettings.delete')}
          </button>
        ) : (
          <>
            <span>{t('teamSettings.deleteQuestion', { team: team.displayName })}</span>
            <button
              type="button"
              className="gh-btn gh-danger"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await team.delete();
                  props.onDeleted();
                })
              }
            >
              {t('teamSettings.deleteConfirm')}
            </button>
            <button type="button" className="gh-btn" disabled={busy} onClick={() => setConfirmDelete(false)}>
              {t('cli.cancel')}
            </button>
          </>
        )}
      </div>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { useApp, useTeams, useUser } from '../../sdk/react.tsx';
import { AuthCard, FormError, Loader, Root, Spinner, Success, queryParam, useAction } from '../common.tsx';

function SwitcherBody(props: { onChange?: (teamId: string | null) => void }) {
  const user = useUser();
  const teams = useTeams();
  const id = useId();
  const { busy, error, run } = useAction();
  if (!user) return null;
  return (
    <div className="gh-field">
      <label htmlFor={id}>Team</label>
      <select id={id} className="gh-input" value={user.selectedTeam?.id ?? ''} disabled={busy}
        onChange={(e) => { const v = (e.target as HTMLSelectElement).value || null; void run(async () => { await user.setSelectedTeam(v); props.onChange?.(v); }); }}>
        <option value="">No team</option>
        {teams.map((t) => <option key={t.id} value={t.id}>{t.displayName}</option>)}
      </select>
      <FormError error={error} />
    </div>
  );
}

/** Lets the user pick their selected team (`PATCH /users/me {selected_team_id}`). */
export function SelectedTeamSwitcher(props: { onChange?: (teamId: string | null) => void }) {
  return <Root><Loader label="Loading teams…"><SwitcherBody onChange={props.onChange} /></Loader></Root>;
}

function InvitationBody(props: { code: string }) {
  const app = useApp();
  const user = useUser();
  const [teamName, setTeamName] = useState<string | null | undefined>(undefined);
  const [detailsError, setDetailsError] = useState<unknown>(null);
  const [joined, setJoined] = useState(false);
  const { busy, error, run } = useAction();
  const started = useRef(false);
  useEffect(() => {
    if (!user || started.current || !props.code) return;
    started.current = true;
    app.getTeamInvitationDetails(props.code).then((r) => r.status === 'ok' ? setTeamName(r.data.team_display_name) : setDetailsError(r.error), setDetailsError);
  }, [app, user, props.code]);
  if (!props.code) return <FormError error={new Error('The invitation link is missing its code.')} />;
  if (!user) return <p>Please <a href={app.signInUrlWithReturn()}>sign in</a> or <a href={app.signUpUrlWithReturn()}>create an account</a> to accept the invitation.</p>;
  if (detailsError) return <FormError error={detailsError} />;
  if (teamName === undefined) return <Spinner label="Loading the invitation…" />;
  if (joined) return <><Success>You joined {teamName}.</Success><p><a href={app.urls.home}>Continue</a></p></>;
  return (
    <div>
      <p>You have been invited to join <strong>{teamName}</strong>.</p>
      <FormError error={error} />
      <div className="gh-row">
        <button type="button" className="gh-btn gh-primary" disabled={busy} onClick={() => run(async () => { const r = await app.acceptTeamInvitation(props.code); if (r.status === 'error') throw r.error; setJoined(true); })}>Join {teamName}</button>
        <a href={app.urls.home}>Ignore</a>
      </div>
    </div>
  );
}

/** The team-invitation page: shows the team (`/accept/details`) and accepts (`/accept`). */
export function TeamInvitation(props: { code?: string; fullPage?: boolean }) {
  return <AuthCard title="Team invitation" fullPage={props.fullPage}><Loader><InvitationBody code={props.code ?? queryParam('code') ?? ''} /></Loader></AuthCard>;
}

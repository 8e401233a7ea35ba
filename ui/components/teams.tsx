import { useEffect, useId, useRef, useState } from 'react';
import { useApp, useTeams, useUser } from '../../sdk/react.tsx';
import {
  AuthCard,
  FormError,
  Loader,
  MessageError,
  Root,
  Spinner,
  Success,
  queryParam,
  useAction,
  withLocale,
  type PageProps,
} from '../common.tsx';
import { LocaleProvider, useT } from '../i18n/index.tsx';

function SwitcherBody(props: { onChange?: (teamId: string | null) => void }) {
  const user = useUser();
  const teams = useTeams();
  const t = useT();
  const id = useId();
  const { busy, error, run } = useAction();
  if (!user) return null;
  return (
    <div className="gh-field">
      <label htmlFor={id}>{t('team.label')}</label>
      <select
        id={id}
        className="gh-input"
        value={user.selectedTeam?.id ?? ''}
        disabled={busy}
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value || null;
          void run(async () => {
            await user.setSelectedTeam(v);
            props.onChange?.(v);
          });
        }}
      >
        <option value="">{t('team.none')}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.displayName}
          </option>
        ))}
      </select>
      <FormError error={error} />
    </div>
  );
}

function SwitcherLoader(props: { onChange?: (teamId: string | null) => void }) {
  const t = useT();
  return (
    <Root>
      <Loader label={t('team.loading')}>
        <SwitcherBody onChange={props.onChange} />
      </Loader>
    </Root>
  );
}

/** Lets the user pick their selected team (`PATCH /users/me {selected_team_id}`). */
export function SelectedTeamSwitcher(props: { onChange?: (teamId: string | null) => void; locale?: string }) {
  return props.locale ? (
    <LocaleProvider locale={props.locale}>
      <SwitcherLoader onChange={props.onChange} />
    </LocaleProvider>
  ) : (
    <SwitcherLoader onChange={props.onChange} />
  );
}

function InvitationBody(props: { code: string }) {
  const app = useApp();
  const user = useUser();
  const t = useT();
  const [teamName, setTeamName] = useState<string | null | undefined>(undefined);
  const [detailsError, setDetailsError] = useState<unknown>(null);
  const [joined, setJoined] = useState(false);
  const { busy, error, run } = useAction();
  const started = useRef(false);
  useEffect(() => {
    if (!user || started.current || !props.code) return;
    started.current = true;
    app
      .getTeamInvitationDetails(props.code)
      .then((r) => (r.status === 'ok' ? setTeamName(r.data.team_display_name) : setDetailsError(r.error)), setDetailsError);
  }, [app, user, props.code]);
  if (!props.code) return <FormError error={new MessageError('invitation.missingCode')} />;
  // Both links come back here after signing in or creating the account (after_auth_return_to).
  if (!user)
    return (
      <p>
        {t.rich('invitation.signInOrUp', {
          signIn: <a href={app.signInUrlWithReturn()}>{t('invitation.signIn')}</a>,
          signUp: <a href={app.signUpUrlWithReturn()}>{t('invitation.signUp')}</a>,
        })}
      </p>
    );
  if (detailsError) return <FormError error={detailsError} />;
  if (teamName === undefined) return <Spinner label={t('invitation.loading')} />;
  const team = teamName ?? '';
  if (joined)
    return (
      <>
        <Success>{t('invitation.joined', { team })}</Success>
        <p>
          <a href={app.urls.home}>{t('invitation.continue')}</a>
        </p>
      </>
    );
  return (
    <div>
      <p>{t.rich('invitation.invited', { team: <strong>{team}</strong> })}</p>
      <FormError error={error} />
      <div className="gh-row">
        <button
          type="button"
          className="gh-btn gh-primary"
          disabled={busy}
          onClick={() =>
            run(async () => {
              const r = await app.acceptTeamInvitation(props.code);
              if (r.status === 'error') throw r.error;
              setJoined(true);
            })
          }
        >
          {t('invitation.join', { team })}
        </button>
        <a href={app.urls.home}>{t('invitation.ignore')}</a>
      </div>
    </div>
  );
}

function TeamInvitationPage(props: PageProps & { code?: string }) {
  const t = useT();
  return (
    <AuthCard title={t('invitation.title')} fullPage={props.fullPage}>
      <Loader>
        <InvitationBody code={props.code ?? queryParam('code') ?? ''} />
      </Loader>
    </AuthCard>
  );
}

/** The team-invitation page: shows the team (`/accept/details`) and accepts (`/accept`). */
export const TeamInvitation = withLocale(TeamInvitationPage);

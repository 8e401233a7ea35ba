import { useState, type FormEvent, type ReactNode } from 'react';
import { GatehouseKnownError } from '../../sdk/errors.ts';
import {
  useActiveSessions,
  useApiKeys,
  useApp,
  useContactChannels,
  useNotificationCategories,
  useProject,
  useTeams,
  useUser,
} from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import {
  AuthCard,
  Field,
  FormError,
  Loader,
  PASSWORD_RULES,
  SecretValue,
  Success,
  emailProblem,
  errorText,
  passwordProblem,
  useAction,
  useInvalidFocus,
  withLocale,
  type PageProps,
} from '../common.tsx';
import { useT } from '../i18n/index.tsx';
import { TeamManagement } from './team-settings.tsx';
import { LinkedAccountsSettings, PasskeySettings, TwoFactorSettings } from './account-settings-slots.tsx';
import { PaymentsSettings } from './payments.tsx';
import { AuthorizedAppsSettings } from './authorized-apps.tsx';
import { EmailLanguage, categoryName, sessionLabel } from './account-preferences.tsx';

function Section(props: { title: string; children?: ReactNode }) {
  const id = `gh-s-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section className="gh-section" aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <Loader>{props.children}</Loader>
    </section>
  );
}

function Profile(props: { user: User }) {
  const t = useT();
  const [name, setName] = useState(props.user.displayName ?? '');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  const tooLong = name.length > 256;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (tooLong) return;
    await run(async () => {
      await props.user.setDisplayName(name.trim() || null);
      setSaved(true);
    });
  };
  const email = props.user.primaryEmail;
  return (
    <form onSubmit={submit} noValidate aria-label={t('settings.profile')}>
      <p>
        {t.rich('settings.emailIs', { email: <strong data-testid="primary-email">{email ?? t('settings.noEmail')}</strong> })}
        {email ? (
          <span className="gh-badge" data-testid="primary-email-status">
            {props.user.primaryEmailVerified ? t('common.verified') : t('common.notVerified')}
          </span>
        ) : null}
      </p>
      <Field
        label={t('settings.displayName')}
        name="display-name"
        autoComplete="name"
        value={name}
        onChange={(v) => {
          setName(v);
          setSaved(false);
        }}
        error={tooLong ? t('validate.displayNameTooLong') : null}
      />
      <FormError error={error} />
      {saved ? <Success>{t('settings.saved')}</Success> : null}
      <button type="submit" className="gh-btn" disabled={busy}>
        {busy ? t('common.saving') : t('common.save')}
      </button>
    </form>
  );
}

function Emails(props: { user: User }) {
  const app = useApp();
  const t = useT();
  const channels = useContactChannels();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setProblem(p && t(p));
    if (p) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      await props.user.createContactChannel({ value: email.trim(), usedForAuth: false });
      setEmail('');
    });
  };
  return (
    <div>
      <ul className="gh-list" aria-label={t('emails.list')}>
        {channels.map((c) => (
          <li key={c.id}>
            <span>
              {c.value}
              {c.isPrimary ? <span className="gh-badge">{t('emails.primary')}</span> : null}
              <span className="gh-badge">{c.isVerified ? t('common.verified') : t('common.notVerified')}</span>
            </span>
            <span className="gh-row">
              {!c.isVerified ? (
                <button
                  type="button"
                  className="gh-btn"
                  disabled={busy}
                  onClick={() =>
                    run(async () => {
                      await c.sendVerificationEmail({ callbackUrl: app.absoluteUrl(app.urls.emailVerification) });
                      setNotice(t('emails.verificationSent', { email: c.value }));
                    })
                  }
                >
                  {t('emails.sendVerification')}
                </button>
              ) : null}
              {!c.isPrimary && c.isVerified ? (
                <button type="button" className="gh-btn" disabled={busy} onClick={() => run(() => c.update({ isPrimary: true }))}>
                  {t('emails.makePrimary')}
                </button>
              ) : null}
              {!c.isPrimary ? (
                <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => c.delete())}>
                  {t('emails.remove')}
                </button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {notice ? <Success>{notice}</Success> : null}
      <form ref={form} onSubmit={add} noValidate aria-label={t('emails.addLabel')}>
        <Field label={t('emails.addLabel')} type="email" name="new-email" value={email} onChange={setEmail} error={problem} />
        <FormError error={error} />
        <button type="submit" className="gh-btn" disabled={busy}>
          {t('emails.add')}
        </button>
      </form>
    </div>
  );
}

/** Server error codes of a password change that belong to one field. */
const PASSWORD_FIELD_ERRORS: Record<string, 'old' | 'password'> = {
  PASSWORD_CONFIRMATION_MISMATCH: 'old',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
};

function Password(props: { user: User }) {
  const t = useT();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ password?: string | null; old?: string | null }>({});
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const hasPassword = props.user.hasPassword;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    const pw = passwordProblem(password);
    const p = { old: hasPassword && !oldPassword ? t('validate.currentPassword') : null, password: pw && errorText(pw, t) };
    setProblems(p);
    if (p.password || p.old) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      try {
        if (hasPassword) await props.user.updatePassword({ oldPassword, newPassword: password });
        else await props.user.setPassword({ password });
      } catch (err) {
        const field = err instanceof GatehouseKnownError ? PASSWORD_FIELD_ERRORS[err.code] : undefined;
        if (!field) throw err;
        setProblems({ [field]: errorText(err, t) });
        focusFirstInvalid();
        return;
      }
      setOld('');
      setPassword('');
      setDone(true);
    });
  };
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={hasPassword ? t('password.change') : t('password.set')}>
      {hasPassword ? (
        <Field
          label={t('password.current')}
          type="password"
          name="old-password"
          autoComplete="current-password"
          value={oldPassword}
          onChange={setOld}
          error={problems.old}
        />
      ) : null}
      <Field
        label={t('password.new')}
        type="password"
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={problems.password}
        hint={t('validate.passwordRules', PASSWORD_RULES)}
      />
      <FormError error={error} />
      {done ? <Success>{t('password.updated')}</Success> : null}
      <button type="submit" className="gh-btn" disabled={busy}>
        {hasPassword ? t('password.change') : t('password.setSubmit')}
      </button>
    </form>
  );
}

function Sessions(props: { user: User }) {
  const t = useT();
  const sessions = useActiveSessions();
  const { busy, error, run } = useAction();
  const time = (d: Date) => d.toLocaleString(t.locale);
  return (
    <div>
      <ul className="gh-list" aria-label={t('sessions.list')}>
        {sessions.map((s) => {
          const label = sessionLabel(t, s);
          return (
            <li key={s.id}>
              <span>
                {label.device}
                <span className="gh-muted">
                  {label.place ? ` · ${label.place}` : ''} · {t('sessions.signedIn', { time: time(s.createdAt) })}
                  {s.lastUsedAt ? ` · ${t('sessions.lastUsed', { time: time(s.lastUsedAt) })}` : ''}
                </span>
              </span>
              {!s.isCurrentSession ? (
                <button
                  type="button"
                  className="gh-btn gh-danger"
                  disabled={busy}
                  onClick={() => run(() => props.user.revokeSession(s.id))}
                >
                  {t('sessions.signOut')}
                </button>
              ) : (
                <span className="gh-badge">{t('sessions.current')}</span>
              )}
            </li>
          );
        })}
      </ul>
      <FormError error={error} />
    </div>
  );
}

function Teams(props: { user: User }) {
  const t = useT();
  const teams = useTeams();
  const project = useProject();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const p = name.trim() ? null : t('validate.teamName');
    setProblem(p);
    if (p) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      await props.user.createTeam({ displayName: name.trim() });
      setName('');
    });
  };
  return (
    <div>
      {teams.length === 0 ? (
        <p className="gh-muted">{t('teams.none')}</p>
      ) : (
        <ul className="gh-list" aria-label={t('teams.list')}>
          {teams.map((team) => (
            <li key={team.id}>
              <span>
                {team.displayName}
                {props.user.selectedTeam?.id === team.id ? <span className="gh-badge">{t('teams.selected')}</span> : null}
              </span>
              <span className="gh-row">
                <button
                  type="button"
                  className="gh-btn"
                  aria-expanded={open === team.id}
                  onClick={() => setOpen(open === team.id ? null : team.id)}
                >
                  {t('teams.manage', { team: team.displayName })}
                </button>
                <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => props.user.leaveTeam(team))}>
                  {t('teams.leave')}
                </button>
              </span>
              {open === team.id ? <TeamManagement team={team} user={props.user} onDeleted={() => setOpen(null)} /> : null}
            </li>
          ))}
        </ul>
      )}
      {project.config.client_team_creation_enabled ? (
        <form ref={form} onSubmit={create} noValidate aria-label={t('teams.createLabel')}>
          <Field label={t('teams.newName')} name="team-name" value={name} onChange={setName} error={problem} />
          <button type="submit" className="gh-btn" disabled={busy}>
            {t('teams.create')}
          </button>
        </form>
      ) : null}
      <FormError error={error} />
    </div>
  );
}

function ApiKeys(props: { user: User }) {
  const t = useT();
  const keys = useApiKeys();
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      const key = await props.user.createApiKey({ description: description.trim() || t('apiKeys.default'), expiresAt: null });
      setCreated(typeof key.value === 'string' ? key.value : null);
      setDescription('');
    });
  };
  return (
    <div>
      <ul className="gh-list" aria-label={t('apiKeys.list')}>
        {keys.map((k) => {
          const why = k.whyInvalid();
          return (
            <li key={k.id}>
              <span>
                {k.description} <span className="gh-muted">…{typeof k.value === 'string' ? k.value.slice(-4) : k.value.lastFour}</span>
                {why ? <span className="gh-badge">{why === 'expired' ? t('apiKeys.expired') : t('apiKeys.revoked')}</span> : null}
              </span>
              {!why ? (
                <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => k.revoke())}>
                  {t('apiKeys.revoke')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {created ? (
        <>
          <Success>{t('apiKeys.created')}</Success>
          <SecretValue value={created} label={t('apiKeys.newKey')} />
        </>
      ) : null}
      <form onSubmit={create} noValidate aria-label={t('apiKeys.createLabel')}>
        <Field label={t('apiKeys.description')} name="api-key-description" value={description} onChange={setDescription} />
        <button type="submit" className="gh-btn" disabled={busy}>
          {t('apiKeys.create')}
        </button>
      </form>
      <FormError error={error} />
    </div>
  );
}

function Notifications() {
  const t = useT();
  const categories = useNotificationCategories();
  const { busy, error, run } = useAction();
  return (
    <div>
      <ul className="gh-list" aria-label={t('notifications.list')}>
        {categories.map((c) => (
          <li key={c.id}>
            <label>
              <input
                type="checkbox"
                checked={c.enabled}
                disabled={busy || !c.canDisable}
                onChange={(e) => run(() => c.setEnabled((e.target as HTMLInputElement).checked))}
              />{' '}
              {categoryName(t, c.name)}
            </label>
          </li>
        ))}
      </ul>
      <FormError error={error} />
    </div>
  );
}

function DeleteAccount(props: { user: User }) {
  const app = useApp();
  const t = useT();
  const [confirm, setConfirm] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div>
      <p className="gh-muted" id="gh-delete-warning">
        {t('delete.warning')}
      </p>
      <label className="gh-row">
        <input type="checkbox" checked={confirm} onChange={(e) => setConfirm((e.target as HTMLInputElement).checked)} />{' '}
        {t('delete.confirm')}
      </label>
      <FormError error={error} />
      <button
        type="button"
        className="gh-btn gh-danger"
        aria-describedby="gh-delete-warning"
        disabled={!confirm || busy}
        onClick={() =>
          run(async () => {
            await props.user.delete();
            await app.redirectToUrl(app.urls.afterSignOut);
          })
        }
      >
        {t('delete.submit')}
      </button>
    </div>
  );
}

/** Back to the app (when the project has one) and sign-out, above the sections. */
function SettingsActions() {
  const app = useApp();
  const t = useT();
  const { busy, error, run } = useAction();
  const hasApp = app.urls.home !== app.urls.accountSettings;
  return (
    <div>
      <div className="gh-actions">
        {hasApp ? (
          <a href={app.urls.home} data-testid="back-to-app">
            {t('settings.backToApp')}
          </a>
        ) : (
          <span />
        )}
        <button type="button" className="gh-btn" disabled={busy} onClick={() => run(() => app.signOut())}>
          {t('common.signOut')}
        </button>
      </div>
      <FormError error={error} />
    </div>
  );
}

function SettingsBody() {
  const user = useUser({ or: 'redirect' });
  const project = useProject();
  const t = useT();
  if (!user) return null;
  return (
    <div>
      <SettingsActions />
      <Section title={t('settings.profile')}>
        <Profile user={user} />
      </Section>
      <Section title={t('settings.emails')}>
        <Emails user={user} />
      </Section>
      <Section title={t('settings.password')}>
        <Password user={user} />
      </Section>
      <PasskeySettings user={user} Section={Section} />
      <TwoFactorSettings user={user} Section={Section} />
      <LinkedAccountsSettings user={user} Section={Section} />
      <Section title={t('settings.sessions')}>
        <Sessions user={user} />
      </Section>
      <AuthorizedAppsSettings user={user} Section={Section} />
      <Section title={t('settings.teams')}>
        <Teams user={user} />
      </Section>
      <Section title={t('settings.payments')}>
        <PaymentsSettings user={user} />
      </Section>
      {project.config.allow_user_api_keys ? (
        <Section title={t('settings.apiKeys')}>
          <ApiKeys user={user} />
        </Section>
      ) : null}
      <Section title={t('settings.notifications')}>
        <EmailLanguage user={user} />
        <Notifications />
      </Section>
      {project.config.client_user_deletion_enabled ? (
        <Section title={t('settings.delete')}>
          <DeleteAccount user={user} />
        </Section>
      ) : null}
    </div>
  );
}

function AccountSettingsPage(props: PageProps) {
  const t = useT();
  return (
    <AuthCard title={t('settings.title')} wide fullPage={props.fullPage}>
      <Loader label={t('settings.loading')}>
        <SettingsBody />
      </Loader>
    </AuthCard>
  );
}

/**
 * Account settings: back to the app and sign-out, then profile, emails, password, passkeys and
 * two-factor (when the server has them), sessions, authorized apps (when there are some), teams, API keys, notifications, deletion.
 */
export const AccountSettings = withLocale(AccountSettingsPage);

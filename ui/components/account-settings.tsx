import { useState, type FormEvent, type ReactNode } from 'react';
import { useActiveSessions, useApiKeys, useApp, useContactChannels, useNotificationCategories, useProject, useTeams, useUser } from '../../sdk/react.tsx';
import type { User } from '../../sdk/user.ts';
import { AuthCard, Field, FormError, Loader, Success, emailProblem, passwordProblems, useAction } from '../common.tsx';
import { PasskeySettings, usePasskeysOffered } from './passkeys.tsx';
import { TwoFactorSettings } from './two-factor.tsx';
import { LinkedAccounts } from './linked-accounts.tsx';

function Section(props: { title: string; children?: ReactNode }) {
  const id = `gh-s-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return <section className="gh-section" aria-labelledby={id}><h2 id={id}>{props.title}</h2><Loader>{props.children}</Loader></section>;
}

function Profile(props: { user: User }) {
  const [name, setName] = useState(props.user.displayName ?? '');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (name.length > 256) return;
    await run(async () => { await props.user.setDisplayName(name.trim() || null); setSaved(true); });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Profile">
      <p>Email: <strong data-testid="primary-email">{props.user.primaryEmail ?? 'none'}</strong>{props.user.primaryEmail ? <span className="gh-badge" data-testid="primary-email-status">{props.user.primaryEmailVerified ? 'Verified' : 'Not verified'}</span> : null}</p>
      <Field label="Display name" name="display-name" autoComplete="name" value={name} onChange={(v) => { setName(v); setSaved(false); }} error={name.length > 256 ? 'The display name can be at most 256 characters.' : null} />
      <FormError error={error} />
      {saved ? <Success>Saved.</Success> : null}
      <button type="submit" className="gh-btn" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
    </form>
  );
}

function Emails(props: { user: User }) {
  const app = useApp();
  const channels = useContactChannels();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setProblem(p);
    if (p) return;
    await run(async () => { await props.user.createContactChannel({ value: email.trim(), usedForAuth: false }); setEmail(''); });
  };
  return (
    <div>
      <ul className="gh-list" aria-label="Email addresses">
        {channels.map((c) => (
          <li key={c.id}>
            <span>{c.value}{c.isPrimary ? <span className="gh-badge">Primary</span> : null}<span className="gh-badge">{c.isVerified ? 'Verified' : 'Not verified'}</span></span>
            <span className="gh-row">
              {!c.isVerified ? <button type="button" className="gh-btn" disabled={busy} onClick={() => run(async () => { await c.sendVerificationEmail({ callbackUrl: app.absoluteUrl(app.urls.emailVerification) }); setNotice(`Verification email sent to ${c.value}.`); })}>Send verification email</button> : null}
              {!c.isPrimary && c.isVerified ? <button type="button" className="gh-btn" disabled={busy} onClick={() => run(() => c.update({ isPrimary: true }))}>Make primary</button> : null}
              {!c.isPrimary ? <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => c.delete())}>Remove</button> : null}
            </span>
          </li>
        ))}
      </ul>
      {notice ? <Success>{notice}</Success> : null}
      <form onSubmit={add} noValidate aria-label="Add an email address">
        <Field label="Add an email address" type="email" name="new-email" value={email} onChange={setEmail} error={problem} />
        <FormError error={error} />
        <button type="submit" className="gh-btn" disabled={busy}>Add email</button>
      </form>
    </div>
  );
}

function Password(props: { user: User }) {
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problems, setProblems] = useState<{ password?: string; repeat?: string; old?: string }>({});
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    const p = { ...passwordProblems(password, repeat), old: props.user.hasPassword && !oldPassword ? 'Please enter your current password.' : undefined };
    setProblems(p);
    if (p.password || p.repeat || p.old) return;
    await run(async () => {
      if (props.user.hasPassword) await props.user.updatePassword({ oldPassword, newPassword: password });
      else await props.user.setPassword({ password });
      setOld(''); setPassword(''); setRepeat(''); setDone(true);
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={props.user.hasPassword ? 'Change password' : 'Set a password'}>
      {props.user.hasPassword ? <Field label="Current password" type="password" name="old-password" autoComplete="current-password" value={oldPassword} onChange={setOld} error={problems.old} /> : null}
      <Field label="New password" type="password" name="new-password" autoComplete="new-password" value={password} onChange={setPassword} error={problems.password} />
      <Field label="Repeat new password" type="password" name="repeat-new-password" autoComplete="new-password" value={repeat} onChange={setRepeat} error={problems.repeat} />
      <FormError error={error} />
      {done ? <Success>Your password has been updated.</Success> : null}
      <button type="submit" className="gh-btn" disabled={busy}>{props.user.hasPassword ? 'Change password' : 'Set password'}</button>
    </form>
  );
}

function Sessions(props: { user: User }) {
  const sessions = useActiveSessions();
  const { busy, error, run } = useAction();
  return (
    <div>
      <ul className="gh-list" aria-label="Sessions">
        {sessions.map((s) => (
          <li key={s.id}>
            <span>{s.isCurrentSession ? 'This device' : 'Other device'}<span className="gh-muted"> · signed in {s.createdAt.toLocaleString()}{s.lastUsedAt ? ` · last used ${s.lastUsedAt.toLocaleString()}` : ''}</span></span>
            {!s.isCurrentSession ? <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => props.user.revokeSession(s.id))}>Sign out</button> : <span className="gh-badge">Current</span>}
          </li>
        ))}
      </ul>
      <FormError error={error} />
    </div>
  );
}

function Teams(props: { user: User }) {
  const teams = useTeams();
  const project = useProject();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const p = name.trim() ? null : 'Please enter a team name.';
    setProblem(p);
    if (p) return;
    await run(async () => { await props.user.createTeam({ displayName: name.trim() }); setName(''); });
  };
  return (
    <div>
      {teams.length === 0 ? <p className="gh-muted">You are not in any team.</p> : (
        <ul className="gh-list" aria-label="Teams">
          {teams.map((t) => (
            <li key={t.id}>
              <span>{t.displayName}{props.user.selectedTeam?.id === t.id ? <span className="gh-badge">Selected</span> : null}</span>
              <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => props.user.leaveTeam(t))}>Leave</button>
            </li>
          ))}
        </ul>
      )}
      {project.config.client_team_creation_enabled ? (
        <form onSubmit={create} noValidate aria-label="Create a team">
          <Field label="New team name" name="team-name" value={name} onChange={setName} error={problem} />
          <button type="submit" className="gh-btn" disabled={busy}>Create team</button>
        </form>
      ) : null}
      <FormError error={error} />
    </div>
  );
}

function ApiKeys(props: { user: User }) {
  const keys = useApiKeys();
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const create = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      const key = await props.user.createApiKey({ description: description.trim() || 'API key', expiresAt: null });
      setCreated(typeof key.value === 'string' ? key.value : null);
      setDescription('');
    });
  };
  return (
    <div>
      <ul className="gh-list" aria-label="API keys">
        {keys.map((k) => (
          <li key={k.id}>
            <span>{k.description} <span className="gh-muted">…{typeof k.value === 'string' ? k.value.slice(-4) : k.value.lastFour}</span>{k.whyInvalid() ? <span className="gh-badge">{k.whyInvalid()}</span> : null}</span>
            {!k.whyInvalid() ? <button type="button" className="gh-btn gh-danger" disabled={busy} onClick={() => run(() => k.revoke())}>Revoke</button> : null}
          </li>
        ))}
      </ul>
      {created ? <Success>Copy your new key now; it will not be shown again: <code>{created}</code></Success> : null}
      <form onSubmit={create} noValidate aria-label="Create an API key">
        <Field label="Key description" name="api-key-description" value={description} onChange={setDescription} />
        <button type="submit" className="gh-btn" disabled={busy}>Create API key</button>
      </form>
      <FormError error={error} />
    </div>
  );
}

function Notifications() {
  const categories = useNotificationCategories();
  const { busy, error, run } = useAction();
  return (
    <div>
      <ul className="gh-list" aria-label="Notification categories">
        {categories.map((c) => (
          <li key={c.id}>
            <label><input type="checkbox" checked={c.enabled} disabled={busy || !c.canDisable} onChange={(e) => run(() => c.setEnabled((e.target as HTMLInputElement).checked))} /> {c.name}</label>
          </li>
        ))}
      </ul>
      <FormError error={error} />
    </div>
  );
}

function DeleteAccount(props: { user: User }) {
  const app = useApp();
  const [confirm, setConfirm] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div>
      <p className="gh-muted">Deleting your account removes your data permanently. This cannot be undone.</p>
      <label className="gh-row"><input type="checkbox" checked={confirm} onChange={(e) => setConfirm((e.target as HTMLInputElement).checked)} /> I understand that this cannot be undone</label>
      <FormError error={error} />
      <button type="button" className="gh-btn gh-danger" disabled={!confirm || busy} onClick={() => run(async () => { await props.user.delete(); await app.redirectToUrl(app.urls.afterSignOut); })}>Delete account</button>
    </div>
  );
}

function SettingsBody() {
  const user = useUser({ or: 'redirect' });
  const project = useProject();
  const passkeys = usePasskeysOffered();
  if (!user) return null;
  return (
    <div>
      <Section title="Profile"><Profile user={user} /></Section>
      <Section title="Emails"><Emails user={user} /></Section>
      <Section title="Password"><Password user={user} /></Section>
      {passkeys ? <Section title="Passkeys"><PasskeySettings user={user} /></Section> : null}
      <Section title="Two-factor authentication"><TwoFactorSettings user={user} /></Section>
      {project.config.enabled_oauth_providers.length > 0 ? <Section title="Linked accounts"><LinkedAccounts user={user} /></Section> : null}
      <Section title="Active sessions"><Sessions user={user} /></Section>
      <Section title="Teams"><Teams user={user} /></Section>
      {project.config.allow_user_api_keys ? <Section title="API keys"><ApiKeys user={user} /></Section> : null}
      <Section title="Notifications"><Notifications /></Section>
      {project.config.client_user_deletion_enabled ? <Section title="Delete account"><DeleteAccount user={user} /></Section> : null}
    </div>
  );
}

/** Account settings: profile, emails, password, passkeys, two-factor authentication, sessions, teams, API keys, notifications, deletion. */
export function AccountSettings(props: { fullPage?: boolean }) {
  return <AuthCard title="Account settings" wide fullPage={props.fullPage}><Loader label="Loading your account…"><SettingsBody /></Loader></AuthCard>;
}

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useApp, useUser } from '../../sdk/react.tsx';
import type { Result } from '../../sdk/errors.ts';
import { AuthCard, Field, FormError, Loader, Spinner, Submit, Success, errorText, queryParam, useAction } from '../common.tsx';

/** Runs `fn` once on mount and reports pending / ok / error (guards against double effects). */
function useOnce<T>(fn: () => Promise<Result<T> | void>): { status: 'pending' } | { status: 'ok' } | { status: 'error'; error: unknown } {
  const [state, setState] = useState<{ status: 'pending' } | { status: 'ok' } | { status: 'error'; error: unknown }>({ status: 'pending' });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    fn().then((r) => setState(r && r.status === 'error' ? { status: 'error', error: r.error } : { status: 'ok' }), (error: unknown) => setState({ status: 'error', error }));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}

function Outcome(props: { state: ReturnType<typeof useOnce>; pending: string; ok: ReactNode; after?: ReactNode }) {
  if (props.state.status === 'pending') return <Spinner label={props.pending} />;
  if (props.state.status === 'error') return <><FormError error={props.state.error} />{props.after}</>;
  return <>{props.ok}{props.after}</>;
}

/** The email-verification page: verifies the link's `code` (`POST /contact-channels/verify`). */
export function EmailVerification(props: { code?: string; fullPage?: boolean }) {
  const app = useApp();
  const code = props.code ?? queryParam('code') ?? '';
  const state = useOnce(() => code ? app.verifyEmail(code) : Promise.reject(new Error('The verification link is missing its code.')));
  return (
    <AuthCard title="Email verification" fullPage={props.fullPage}>
      <Outcome state={state} pending="Verifying your email…" ok={<Success>Your email has been verified.</Success>} after={<p className="gh-row"><a href={app.urls.home}>Go home</a><a href={app.urls.accountSettings}>Account settings</a></p>} />
    </AuthCard>
  );
}

/** The magic-link callback: signs in with the link's `code` (`POST /auth/otp/sign-in`). */
export function MagicLinkCallback(props: { code?: string; fullPage?: boolean }) {
  const app = useApp();
  const code = props.code ?? queryParam('code') ?? '';
  const state = useOnce(() => app.signInWithMagicLink(code));
  return <AuthCard title="Signing you in" fullPage={props.fullPage}><Outcome state={state} pending="Signing you in…" ok={<Success>You are signed in.</Success>} after={state.status === 'error' ? <p><a href={app.urls.signIn}>Back to sign in</a></p> : null} /></AuthCard>;
}

/** The OAuth callback: exchanges `code` (removing `code` and `state` from the address bar). */
export function OAuthCallback(props: { fullPage?: boolean }) {
  const app = useApp();
  const state = useOnce(() => app.callOAuthCallback());
  const error = state.status === 'error' && (state.error as { code?: string }).code === 'INVALID_TOTP_CODE' ? { status: 'error' as const, error: new Error('Invalid TOTP code. Please try signing in again.') } : state;
  return <AuthCard title="Signing you in" fullPage={props.fullPage}><Outcome state={error} pending="Finishing sign-in…" ok={<Success>You are signed in.</Success>} after={state.status === 'error' ? <p><a href={app.urls.signIn}>Back to sign in</a></p> : null} /></AuthCard>;
}

/** The sign-out page: signs out and goes to after-sign-out. */
export function SignOut(props: { fullPage?: boolean }) {
  const app = useApp();
  const state = useOnce(() => app.signOut());
  return <AuthCard title="Signing out" fullPage={props.fullPage}><Outcome state={state} pending="Signing you out…" ok={<Success>You are signed out.</Success>} /></AuthCard>;
}

/**
 * The multi-factor page: the 6-digit TOTP code for the pending attempt (`POST /auth/mfa/sign-in`),
 * or, behind "Use a recovery code", a single-use recovery code (Gatehouse extension).
 */
export function MfaPage(props: { fullPage?: boolean; attemptCode?: string }) {
  const app = useApp();
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const switchTo = (next: 'totp' | 'recovery') => { setMode(next); setValue(''); setProblem(null); setError(null); };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const entered = value.replace(/\s/g, '');
    const bad = mode === 'totp'
      ? (/^\d{6}$/.test(entered) ? null : 'Enter the 6-digit code from your authenticator app.')
      : (/^[0-9a-z-]{16,19}$/i.test(entered) ? null : 'Enter one of your recovery codes, like 7h2k-q9xm-3bcd-ne4r.');
    setProblem(bad);
    if (bad) return;
    await run(async () => {
      const r = mode === 'totp' ? await app.signInWithMfa(entered, props.attemptCode) : await app.signInWithRecoveryCode(entered, props.attemptCode);
      if (r.status === 'error') throw r.error;
    });
  };
  return (
    <AuthCard title="Two-factor authentication" fullPage={props.fullPage}>
      <form onSubmit={submit} noValidate aria-label={mode === 'totp' ? 'Enter your authentication code' : 'Enter a recovery code'}>
        {mode === 'totp'
          ? <Field key="totp" label="Authentication code" name="totp" inputMode="numeric" autoComplete="one-time-code" value={value} onChange={setValue} error={problem} autoFocus />
          : <Field key="recovery" label="Recovery code" name="recovery-code" autoComplete="off" value={value} onChange={setValue} error={problem} autoFocus />}
        <FormError error={error} />
        <Submit busy={busy} busyLabel="Verifying…">Verify</Submit>
      </form>
      <p>
        {mode === 'totp'
          ? <button type="button" className="gh-link" onClick={() => switchTo('recovery')}>Use a recovery code</button>
          : <button type="button" className="gh-link" onClick={() => switchTo('totp')}>Use your authenticator app</button>}
      </p>
    </AuthCard>
  );
}

function CliConfirmBody(props: { loginCode: string }) {
  const app = useApp();
  const user = useUser();
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  if (!props.loginCode) return <FormError error={new Error('The link is missing its login_code.')} />;
  if (!user) return <p>Please <a href={app.signInUrlWithReturn()}>sign in</a> to authorize the command-line login.</p>;
  if (done) return <Success>The command line is now signed in. You can close this window.</Success>;
  return (
    <div>
      <p>A command-line tool is asking to sign in as <strong>{user.primaryEmail ?? user.displayName ?? user.id}</strong>.</p>
      <FormError error={error} />
      <div className="gh-row">
        <button type="button" className="gh-btn gh-primary" disabled={busy} onClick={() => run(async () => { const r = await app.confirmCliLogin(props.loginCode); if (r.status === 'error') throw r.error; setDone(true); })}>Authorize</button>
        <a href={app.urls.home}>Cancel</a>
      </div>
    </div>
  );
}

/** The CLI confirmation page (query `login_code`): `POST /auth/cli/complete` with this session. */
export function CliAuthConfirm(props: { loginCode?: string; fullPage?: boolean }) {
  return <AuthCard title="Authorize command-line login" fullPage={props.fullPage}><Loader><CliConfirmBody loginCode={props.loginCode ?? queryParam('login_code') ?? ''} /></Loader></AuthCard>;
}

/** The error page: shows `errorCode` / `message` from the query (or props). */
export function ErrorPage(props: { errorCode?: string; message?: string; fullPage?: boolean }) {
  const app = useApp();
  const code = props.errorCode ?? queryParam('errorCode') ?? queryParam('error_code');
  const message = props.message ?? queryParam('message') ?? queryParam('error_description');
  return (
    <AuthCard title="Something went wrong" fullPage={props.fullPage}>
      <p role="alert">{message ?? errorText(new Error('An unknown error occurred.'))}</p>
      {code ? <p className="gh-muted">Error code: <code>{code}</code></p> : null}
      <p><a href={app.urls.signIn}>Back to sign in</a></p>
    </AuthCard>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useApp } from '../../sdk/react.tsx';
import { AuthCard, Field, FormError, Spinner, Submit, Success, emailProblem, passwordProblems, queryParam, useAction } from '../common.tsx';

/** "Forgot password": sends the reset email (`POST /auth/password/send-reset-code`). */
export function ForgotPassword(props: { fullPage?: boolean }) {
  const app = useApp();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setProblem(p);
    if (p) return;
    await run(async () => {
      const r = await app.sendForgotPasswordEmail(email.trim(), { callbackUrl: app.absoluteUrl(app.urls.passwordReset) });
      // An unknown email answers like a known one, so the page does not reveal who has an account.
      if (r.status === 'error' && r.error.code !== 'USER_NOT_FOUND') throw r.error;
      setSent(true);
    });
  };
  return (
    <AuthCard title="Reset your password" fullPage={props.fullPage}>
      {sent ? <Success>If an account exists for {email.trim()}, we sent it a link to reset the password. Check your inbox.</Success> : (
        <form onSubmit={submit} noValidate aria-label="Send a password reset link">
          <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={problem} />
          <FormError error={error} />
          <Submit busy={busy} busyLabel="Sending…">Send reset link</Submit>
        </form>
      )}
      <p className="gh-muted"><a href={app.urls.signIn}>Back to sign in</a></p>
    </AuthCard>
  );
}

/** The password-reset page: checks the link's `code`, then sets the new password. */
export function PasswordReset(props: { code?: string; fullPage?: boolean }) {
  const app = useApp();
  const code = props.code ?? queryParam('code') ?? '';
  const [checked, setChecked] = useState<'pending' | 'ok' | unknown>('pending');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problems, setProblems] = useState<{ password?: string; repeat?: string }>({});
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!code) { setChecked(new Error('The password reset link is missing its code.')); return; }
    app.verifyPasswordResetCode(code).then((r) => setChecked(r.status === 'ok' ? 'ok' : r.error), (e: unknown) => setChecked(e));
  }, [app, code]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = passwordProblems(password, repeat);
    setProblems(p);
    if (p.password || p.repeat) return;
    await run(async () => {
      const r = await app.resetPassword({ code, password });
      if (r.status === 'error') throw r.error;
      setDone(true);
    });
  };
  let body;
  if (done) body = <><Success>Your password has been reset.</Success><p><a href={app.urls.signIn}>Sign in</a></p></>;
  else if (checked === 'pending') body = <Spinner label="Checking the link…" />;
  else if (checked !== 'ok') body = <><FormError error={checked} /><p><a href={app.urls.forgotPassword}>Request a new link</a></p></>;
  else body = (
    <form onSubmit={submit} noValidate aria-label="Choose a new password">
      <Field label="New password" type="password" name="password" autoComplete="new-password" value={password} onChange={setPassword} error={problems.password} autoFocus />
      <Field label="Repeat new password" type="password" name="repeat-password" autoComplete="new-password" value={repeat} onChange={setRepeat} error={problems.repeat} />
      <FormError error={error} />
      <Submit busy={busy} busyLabel="Saving…">Reset password</Submit>
    </form>
  );
  return <AuthCard title="Choose a new password" fullPage={props.fullPage}>{body}</AuthCard>;
}

import { useState } from 'react';
import { Field, Form, useApi } from '../kit.tsx';
import { isValidEmail } from '../validate.ts';

/**
 * Signed-out page: on a fresh server the first owner's sign-up; afterwards sign-in (and sign-up
 * only while the server keeps it open, GATEHOUSE_DASHBOARD_SIGNUP=open).
 */
export function AuthPage(props: { onSignedIn: () => void }) {
  const api = useApi();
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>(api.boot.firstRun ? 'sign-up' : 'sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const signUp = mode === 'sign-up';
  const emailError = touched && !isValidEmail(email.trim()) ? 'Please enter a valid email address.' : null;
  const passwordError = touched && !password ? 'Please enter a password.' : null;
  const repeatError = touched && signUp && password !== repeat ? 'Passwords do not match.' : null;
  const submit = async () => {
    setTouched(true);
    if (!isValidEmail(email.trim()) || !password || (signUp && password !== repeat)) throw new Error('Please fix the fields above.');
    const r = signUp
      ? await api.app.signUpWithCredential({ email: email.trim(), password, noRedirect: true, noVerificationCallback: true })
      : await api.app.signInWithCredential({ email: email.trim(), password, noRedirect: true });
    if (r.status === 'error') throw r.error;
  };
  return (
    <div className="d-auth d-card">
      <h1>{api.boot.firstRun && signUp ? 'Welcome to Gatehouse' : signUp ? 'Create a dashboard account' : 'Sign in to Gatehouse'}</h1>
      {api.boot.firstRun && signUp && <p className="d-muted">Create the owner account of this server. After this, sign-up to the dashboard closes; invite other owners through your team.</p>}
      <Form onSubmit={submit} submit={signUp ? 'Create owner account' : 'Sign in'} busyLabel={signUp ? 'Creating account…' : 'Signing in…'} label={signUp ? 'Sign up' : 'Sign in'} onDone={props.onSignedIn}>
        <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={emailError} />
        <Field label="Password" type="password" name="password" autoComplete={signUp ? 'new-password' : 'current-password'} value={password} onChange={setPassword} error={passwordError} />
        {signUp && <Field label="Repeat password" type="password" name="repeat-password" autoComplete="new-password" value={repeat} onChange={setRepeat} error={repeatError} />}
      </Form>
      {!api.boot.firstRun && (signUp
        ? <p><button type="button" className="d-link" onClick={() => setMode('sign-in')}>I already have an account</button></p>
        : api.boot.signUpOpen && <p><button type="button" className="d-link" onClick={() => setMode('sign-up')}>Create an account</button></p>)}
    </div>
  );
}

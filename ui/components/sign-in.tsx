import { useContext, useState, type FormEvent } from 'react';
import { useApp, useProject, useUser } from '../../sdk/react.tsx';
import { OAuthButtonGroup } from './oauth-buttons.tsx';
import { AuthCard, CapabilitiesContext, Field, FormError, Loader, Submit, Success, emailProblem, errorText, passwordProblems, useAction } from '../common.tsx';

export { OAuthButtonGroup };

/** Email + password sign-in form (`POST /auth/password/sign-in`); redirects after success. */
export function CredentialSignIn() {
  const app = useApp();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ email?: string | null; password?: string | null }>({});
  const { busy, error, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = { email: emailProblem(email), password: password ? null : 'Please enter your password.' };
    setProblems(p);
    if (p.email || p.password) return;
    await run(async () => {
      const r = await app.signInWithCredential({ email: email.trim(), password });
      if (r.status === 'error') throw r.error;
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in with email and password">
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={problems.email} />
      <Field label="Password" type="password" name="password" autoComplete="current-password" value={password} onChange={setPassword} error={problems.password} />
      <FormError error={error} />
      <Submit busy={busy} busyLabel="Signing in…">Sign in</Submit>
      <p className="gh-muted"><a href={app.urls.forgotPassword}>Forgot password?</a></p>
    </form>
  );
}

/** Email + password + repeat sign-up form (`POST /auth/password/sign-up`); "Passwords do not match." */
export function CredentialSignUp() {
  const app = useApp();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problems, setProblems] = useState<{ email?: string | null; password?: string; repeat?: string }>({});
  const { busy, error, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = { email: emailProblem(email), ...passwordProblems(password, repeat) };
    setProblems(p);
    if (p.email || p.password || p.repeat) return;
    await run(async () => {
      const r = await app.signUpWithCredential({ email: email.trim(), password, verificationCallbackUrl: app.absoluteUrl(app.urls.emailVerification) });
      if (r.status === 'error') throw r.error;
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Sign up with email and password">
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={problems.email} />
      <Field label="Password" type="password" name="password" autoComplete="new-password" value={password} onChange={setPassword} error={problems.password} />
      <Field label="Repeat password" type="password" name="repeat-password" autoComplete="new-password" value={repeat} onChange={setRepeat} error={problems.repeat} />
      <FormError error={error} />
      <Submit busy={busy} busyLabel="Creating account…">Sign up</Submit>
    </form>
  );
}

/** Magic link / one-time code sign-in: sends the email, then accepts the 6-character code. */
export function MagicLinkSignIn() {
  const app = useApp();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [nonce, setNonce] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setEmailError(p);
    if (p) return;
    await run(async () => {
      const r = await app.sendMagicLinkEmail(email.trim(), { callbackUrl: app.absoluteUrl(app.urls.magicLinkCallback) });
      if (r.status === 'error') throw r.error;
      setNonce(r.data.nonce);
    });
  };
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    await run(async () => {
      const r = await app.signInWithMagicLink(code.trim().toLowerCase() + (nonce ?? ''));
      if (r.status === 'error') throw r.error;
    });
  };
  if (nonce !== null) {
    return (
      <form onSubmit={verify} noValidate aria-label="Enter the code from your email">
        <Success>We sent a sign-in link and code to {email.trim()}. Open the link, or enter the code below.</Success>
        <Field label="Code" name="otp" autoComplete="one-time-code" value={code} onChange={setCode} autoFocus />
        <FormError error={error} />
        <Submit busy={busy} busyLabel="Signing in…">Sign in with code</Submit>
      </form>
    );
  }
  return (
    <form onSubmit={send} noValidate aria-label="Sign in with a magic link">
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onChange={setEmail} error={emailError} />
      <FormError error={error} />
      <Submit busy={busy} busyLabel="Sending…">Send me a sign-in link</Submit>
    </form>
  );
}

/** Sign in with a passkey (WebAuthn); hidden when the project has passkeys off. */
export function PasskeyButton() {
  const app = useApp();
  const project = useProject();
  const can = useContext(CapabilitiesContext);
  const { busy, error, run } = useAction();
  if (!project.config.passkey_enabled || !can.passkey) return null;
  return (
    <div>
      <button type="button" className="gh-btn" style={{ width: '100%' }} disabled={busy} onClick={() => run(async () => { const r = await app.signInWithPasskey(); if (r.status === 'error') throw r.error; })}>Sign in with a passkey</button>
      <FormError error={error} />
    </div>
  );
}

function AlreadySignedIn() {
  const app = useApp();
  return (
    <div>
      <p>You are already signed in.</p>
      <p className="gh-row"><a href={app.urls.home}>Go home</a><a href={app.urls.signOut}>Sign out</a></p>
    </div>
  );
}

function MethodTabs(props: { signUp: boolean }) {
  const project = useProject();
  const credential = project.config.credential_enabled;
  const magic = project.config.magic_link_enabled;
  const [tab, setTab] = useState<'password' | 'magic'>(credential ? 'password' : 'magic');
  const form = tab === 'password' ? (props.signUp ? <CredentialSignUp /> : <CredentialSignIn />) : <MagicLinkSignIn />;
  const can = useContext(CapabilitiesContext);
  const others = (can.oauth && project.config.enabled_oauth_providers.length > 0) || (can.passkey && project.config.passkey_enabled && !props.signUp);
  if (!credential && !magic) return others ? null : <p>No sign-in method is enabled for this project.</p>;
  return (
    <div>
      {others ? <div className="gh-sep">or continue with email</div> : null}
      {credential && magic ? (
        <div className="gh-tabs" role="tablist" aria-label="Sign-in method">
          <button type="button" role="tab" className="gh-tab" aria-selected={tab === 'password'} onClick={() => setTab('password')}>Email &amp; password</button>
          <button type="button" role="tab" className="gh-tab" aria-selected={tab === 'magic'} onClick={() => setTab('magic')}>Email link</button>
        </div>
      ) : null}
      <div role={credential && magic ? 'tabpanel' : undefined}>{form}</div>
    </div>
  );
}

function SignInBody(props: { signUp: boolean }) {
  const app = useApp();
  const user = useUser();
  const project = useProject();
  if (user) return <AlreadySignedIn />;
  if (props.signUp && !project.config.sign_up_enabled) return <p>{errorText(new Error('Sign-up is not enabled for this project.'))}</p>;
  const search = (globalThis as { location?: { search: string } }).location?.search ?? '';
  return (
    <div>
      <OAuthButtonGroup type={props.signUp ? 'sign-up' : 'sign-in'} />
      {props.signUp ? null : <PasskeyButton />}
      <MethodTabs signUp={props.signUp} />
      <p className="gh-muted">
        {props.signUp
          ? <>Already have an account? <a href={app.urls.signIn + search}>Sign in</a></>
          : project.config.sign_up_enabled ? <>Don't have an account? <a href={app.urls.signUp + search}>Sign up</a></> : null}
      </p>
    </div>
  );
}

/** The sign-in page: OAuth buttons, passkey, email + password and magic link, link to sign-up. */
export function SignIn(props: { fullPage?: boolean }) {
  return <AuthCard title="Sign in to your account" fullPage={props.fullPage}><Loader><SignInBody signUp={false} /></Loader></AuthCard>;
}

/** The sign-up page (the project must allow sign-up). */
export function SignUp(props: { fullPage?: boolean }) {
  return <AuthCard title="Create a new account" fullPage={props.fullPage}><Loader><SignInBody signUp /></Loader></AuthCard>;
}

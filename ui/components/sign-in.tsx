import { useContext, useEffect, useState, type FormEvent } from 'react';
import { crossDomainHandoffFrom, returnToProblem } from '../../sdk/cross-domain.ts';
import { GatehouseKnownError } from '../../sdk/errors.ts';
import { useApp, useProject, useUser } from '../../sdk/react.tsx';
import {
  AuthCard,
  CapabilitiesContext,
  Field,
  FormError,
  LegalLinks,
  Loader,
  PASSWORD_RULES,
  Submit,
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
import { OAuthButtonGroup } from './oauth-buttons.tsx';
import { PasskeyAddressNote, passkeyAddressProblem } from './passkeys.tsx';
import { useBotChallenge } from './bot-challenge.tsx';
import { SsoEmailStep, useSsoAvailable } from './sso-discovery.tsx';

export { OAuthButtonGroup };

/** Email + password sign-in form (`POST /auth/password/sign-in`); redirects after success. */
export function CredentialSignIn(props: { initialEmail?: string } = {}) {
  const app = useApp();
  const t = useT();
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ email?: string | null; password?: string | null }>({});
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const challenge = useBotChallenge('sign_in_with_credential');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const emailKey = emailProblem(email);
    const p = { email: emailKey && t(emailKey), password: password ? null : t('validate.passwordEnter') };
    setProblems(p);
    if (p.email || p.password) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await challenge.run((botChallenge) =>
        app.signInWithCredential({ email: email.trim(), password, ...(botChallenge ? { botChallenge } : {}) }),
      );
      if (r.status === 'error') throw r.error;
    });
  };
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={t('signIn.formLabel')}>
      <Field
        label={t('common.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={problems.email}
      />
      <Field
        label={t('common.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={problems.password}
      />
      <p className="gh-actions">
        <a href={app.urls.forgotPassword}>{t('signIn.forgot')}</a>
      </p>
      {challenge.element}
      <FormError error={error} />
      <Submit busy={busy} busyLabel={t('signIn.busy')}>
        {t('signIn.submit')}
      </Submit>
    </form>
  );
}

/**
 * Email + password sign-up form (`POST /auth/password/sign-up`). The password rules show before
 * the first attempt; a show-password toggle replaces a repeated-password field. Server errors
 * about a field (email taken, password too short) are shown at that field.
 */
export function CredentialSignUp(props: { initialEmail?: string } = {}) {
  const app = useApp();
  const t = useT();
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ email?: string | null; password?: string | null }>({});
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const challenge = useBotChallenge('sign_up_with_credential');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const emailKey = emailProblem(email);
    const pw = passwordProblem(password);
    const p = { email: emailKey && t(emailKey), password: pw && errorText(pw, t) };
    setProblems(p);
    if (p.email || p.password) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await challenge.run((botChallenge) =>
        app.signUpWithCredential({
          email: email.trim(),
          password,
          verificationCallbackUrl: app.absoluteUrl(app.urls.emailVerification),
          ...(botChallenge ? { botChallenge } : {}),
        }),
      );
      if (r.status === 'error') {
        const field = r.error instanceof GatehouseKnownError ? SIGN_UP_FIELD_ERRORS[r.error.code] : undefined;
        if (!field) throw r.error;
        setProblems({ [field]: errorText(r.error, t) });
        focusFirstInvalid();
      }
    });
  };
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={t('signUp.formLabel')}>
      <Field
        label={t('common.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={problems.email}
      />
      <Field
        label={t('common.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        error={problems.password}
        hint={t('validate.passwordRules', PASSWORD_RULES)}
      />
      {challenge.element}
      <FormError error={error} />
      <Submit busy={busy} busyLabel={t('signUp.busy')}>
        {t('signUp.submit')}
      </Submit>
    </form>
  );
}

/** Server error codes of sign-up that belong to one field. */
const SIGN_UP_FIELD_ERRORS: Record<string, 'email' | 'password'> = {
  USER_EMAIL_ALREADY_EXISTS: 'email',
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
};

/** Magic link / one-time code sign-in: sends the email, then accepts the 6-character code. */
export function MagicLinkSignIn(props: { initialEmail?: string } = {}) {
  const app = useApp();
  const t = useT();
  const [email, setEmail] = useState(props.initialEmail ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [nonce, setNonce] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const challenge = useBotChallenge('send_magic_link_email');
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setEmailError(p && t(p));
    if (p) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await challenge.run((botChallenge) =>
        app.sendMagicLinkEmail(email.trim(), {
          callbackUrl: app.absoluteUrl(app.urls.magicLinkCallback),
          ...(botChallenge ? { botChallenge } : {}),
        }),
      );
      if (r.status === 'error') throw r.error;
      setNonce(r.data.nonce);
    });
  };
  const verify = async (e: FormEvent) => {
    e.preventDefault();
    const missing = code.trim() ? null : t('validate.code');
    setCodeError(missing);
    if (missing) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await app.signInWithMagicLink(code.trim().toLowerCase() + (nonce ?? ''));
      if (r.status === 'error') throw r.error;
    });
  };
  if (nonce !== null) {
    return (
      <form ref={form} onSubmit={verify} noValidate aria-label={t('magic.codeFormLabel')}>
        <Success>{t('magic.sent', { email: email.trim() })}</Success>
        <Field
          label={t('magic.code')}
          name="otp"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          error={codeError}
          autoFocus
        />
        <FormError error={error} />
        <Submit busy={busy} busyLabel={t('signIn.busy')}>
          {t('magic.codeSubmit')}
        </Submit>
        <MagicLinkRetry
          busy={busy}
          resend={(e) => {
            setCode('');
            void send(e);
          }}
          changeEmail={() => {
            setNonce(null);
            setCode('');
            setError(null);
          }}
        />
      </form>
    );
  }
  return (
    <form ref={form} onSubmit={send} noValidate aria-label={t('magic.formLabel')}>
      <Field
        label={t('common.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={emailError}
      />
      {challenge.element}
      <FormError error={error} />
      <Submit busy={busy} busyLabel={t('common.sending')}>
        {t('magic.send')}
      </Submit>
    </form>
  );
}

/** The "check your email" step's ways out: send the email again, or go back to change the address. */
export function MagicLinkRetry(props: { busy: boolean; resend: (e: FormEvent) => void; changeEmail: () => void }) {
  const t = useT();
  return (
    <p className="gh-row gh-muted">
      <span>{t('magic.noEmail')}</span>
      <button type="button" className="gh-link" disabled={props.busy} onClick={(e) => props.resend(e as unknown as FormEvent)}>
        {t('magic.resend')}
      </button>
      <button type="button" className="gh-link" disabled={props.busy} onClick={props.changeEmail}>
        {t('magic.changeEmail')}
      </button>
    </p>
  );
}

/** Sign in with a passkey (WebAuthn); hidden when the project has passkeys off or the server cannot. */
export function PasskeyButton() {
  const app = useApp();
  const project = useProject();
  const t = useT();
  const can = useContext(CapabilitiesContext);
  const { busy, error, run } = useAction();
  if (!project.config.passkey_enabled || !can.passkey) return null;
  const addressProblem = passkeyAddressProblem();
  if (addressProblem) return <PasskeyAddressNote problem={addressProblem} />;
  return (
    <div>
      <button
        type="button"
        className="gh-btn"
        style={{ width: '100%' }}
        disabled={busy}
        onClick={() =>
          run(async () => {
            const r = await app.signInWithPasskey();
            if (r.status === 'error') throw r.error;
          })
        }
      >
        {t('passkey.signIn')}
      </button>
      <FormError error={error} />
    </div>
  );
}

function AlreadySignedIn() {
  const app = useApp();
  const t = useT();
  // Signed in already and asked for Stack's cross-domain hand-off: hand the session over at once.
  const handoff = crossDomainHandoffFrom((globalThis as { location?: { href?: string } }).location?.href ?? '');
  const [failed, setFailed] = useState<unknown>(null);
  useEffect(() => {
    if (handoff) app.redirectAfterAuth(false).catch(setFailed);
  }, []);
  if (handoff && !failed) return <p role="status">{t('common.pleaseWait')}</p>;
  return (
    <div>
      {failed ? <FormError error={failed} /> : null}
      <p>{t('signIn.alreadySignedIn')}</p>
      <p className="gh-row">
        <a href={app.urls.home}>{app.urls.home === app.urls.accountSettings ? t('common.accountSettings') : t('common.goHome')}</a>
        <a href={app.urls.signOut}>{t('common.signOut')}</a>
      </p>
    </div>
  );
}

function MethodTabs(props: { signUp: boolean; initialEmail?: string }) {
  const project = useProject();
  const t = useT();
  const can = useContext(CapabilitiesContext);
  const credential = project.config.credential_enabled;
  const magic = project.config.magic_link_enabled;
  const [tab, setTab] = useState<'password' | 'magic'>(credential ? 'password' : 'magic');
  const filled = props.initialEmail === undefined ? {} : { initialEmail: props.initialEmail };
  const form =
    tab === 'password' ? (
      props.signUp ? (
        <CredentialSignUp {...filled} />
      ) : (
        <CredentialSignIn {...filled} />
      )
    ) : (
      <MagicLinkSignIn {...filled} />
    );
  const others =
    (can.oauth && project.config.enabled_oauth_providers.length > 0) || (can.passkey && project.config.passkey_enabled && !props.signUp);
  if (!credential && !magic) return others ? null : <p>{t('signIn.noMethod')}</p>;
  const onKey = (e: { key: string; preventDefault(): void; currentTarget: EventTarget | null }) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const next = tab === 'password' ? 'magic' : 'password';
    setTab(next);
    (e.currentTarget as HTMLElement | null)?.parentElement?.querySelector<HTMLElement>(`[data-tab=${next}]`)?.focus();
  };
  return (
    <div>
      {others ? <div className="gh-sep">{t('signIn.or')}</div> : null}
      {credential && magic ? (
        <div className="gh-tabs" role="tablist" aria-label={t('signIn.tabs')}>
          <button
            type="button"
            role="tab"
            id="gh-tab-password"
            data-tab="password"
            aria-controls="gh-tabpanel"
            className="gh-tab"
            aria-selected={tab === 'password'}
            tabIndex={tab === 'password' ? 0 : -1}
            onKeyDown={onKey}
            onClick={() => setTab('password')}
          >
            {t('signIn.tabPassword')}
          </button>
          <button
            type="button"
            role="tab"
            id="gh-tab-magic"
            data-tab="magic"
            aria-controls="gh-tabpanel"
            className="gh-tab"
            aria-selected={tab === 'magic'}
            tabIndex={tab === 'magic' ? 0 : -1}
            onKeyDown={onKey}
            onClick={() => setTab('magic')}
          >
            {t('signIn.tabMagic')}
          </button>
        </div>
      ) : null}
      <div
        id="gh-tabpanel"
        role={credential && magic ? 'tabpanel' : undefined}
        aria-labelledby={credential && magic ? `gh-tab-${tab}` : undefined}
      >
        {form}
      </div>
    </div>
  );
}

/**
 * Says why the page will not go back to its `after_auth_return_to` (not a web address, or not on
 * one of the project's trusted domains) instead of dropping it silently.
 */
export function ReturnToNotice() {
  const app = useApp();
  const t = useT();
  const problem = returnToProblem((globalThis as { location?: { href?: string } }).location?.href ?? '', app.trustedOrigins);
  if (!problem) return null;
  return (
    <p className="gh-hint" role="note" data-testid="return-to-notice">
      {problem.kind === 'invalid' ? t('returnTo.invalid') : t('returnTo.untrusted', { url: problem.origin })}
    </p>
  );
}

function SignInBody(props: { signUp: boolean }) {
  const app = useApp();
  const user = useUser();
  const project = useProject();
  const t = useT();
  const ssoAvailable = useSsoAvailable();
  // Home-realm discovery: with SSO in the project, the address comes first (sso-discovery.tsx).
  const [email, setEmail] = useState<string | null>(null);
  if (user) return <AlreadySignedIn />;
  if (props.signUp && !project.config.sign_up_enabled) return <p>{t('error.SIGN_UP_NOT_ENABLED')}</p>;
  if (ssoAvailable === null) return <p role="status">{t('common.pleaseWait')}</p>;
  // The query (after_auth_return_to, lang) travels between sign-in and sign-up.
  const search = (globalThis as { location?: { search: string } }).location?.search ?? '';
  const emailFirst = ssoAvailable && email === null;
  return (
    <div>
      <ReturnToNotice />
      {emailFirst ? (
        <SsoEmailStep onContinue={setEmail} />
      ) : (
        <>
          {email !== null ? (
            <p className="gh-row gh-muted">
              <span>{email}</span>
              <button type="button" className="gh-link" onClick={() => setEmail(null)}>
                {t('magic.changeEmail')}
              </button>
            </p>
          ) : null}
          <OAuthButtonGroup type={props.signUp ? 'sign-up' : 'sign-in'} />
          {props.signUp ? null : <PasskeyButton />}
          <MethodTabs signUp={props.signUp} {...(email !== null ? { initialEmail: email } : {})} />
        </>
      )}
      <p className="gh-muted">
        {props.signUp
          ? t.rich('signIn.haveAccount', { link: <a href={app.urls.signIn + search}>{t('signIn.link')}</a> })
          : project.config.sign_up_enabled
            ? t.rich('signIn.noAccount', { link: <a href={app.urls.signUp + search}>{t('signUp.link')}</a> })
            : null}
      </p>
      <LegalLinks />
    </div>
  );
}

function SignInPage(props: PageProps) {
  const t = useT();
  return (
    <AuthCard title={t('signIn.title')} fullPage={props.fullPage}>
      <Loader>
        <SignInBody signUp={false} />
      </Loader>
    </AuthCard>
  );
}

function SignUpPage(props: PageProps) {
  const t = useT();
  return (
    <AuthCard title={t('signUp.title')} fullPage={props.fullPage}>
      <Loader>
        <SignInBody signUp />
      </Loader>
    </AuthCard>
  );
}

/**
 * The sign-in page: OAuth buttons, passkey, email + password and magic link, link to sign-up. When
 * the project has SSO connections the address comes first (home-realm discovery, sso-discovery.tsx).
 */
export const SignIn = withLocale(SignInPage);

/** The sign-up page (the project must allow sign-up). */
export const SignUp = withLocale(SignUpPage);

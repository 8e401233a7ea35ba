import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useApp, useUser } from '../../sdk/react.tsx';
import type { Result } from '../../sdk/errors.ts';
import {
  AuthCard,
  Field,
  FormError,
  Loader,
  MessageError,
  Spinner,
  Submit,
  Success,
  isKnownErrorCode,
  queryParam,
  useAction,
  useInvalidFocus,
  withLocale,
  type PageProps,
} from '../common.tsx';
import { useT, type MessageKey } from '../i18n/index.tsx';

/** Runs `fn` once on mount and reports pending / ok / error (guards against double effects). */
function useOnce<T>(fn: () => Promise<Result<T> | void>): { status: 'pending' } | { status: 'ok' } | { status: 'error'; error: unknown } {
  const [state, setState] = useState<{ status: 'pending' } | { status: 'ok' } | { status: 'error'; error: unknown }>({ status: 'pending' });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    fn().then(
      (r) => setState(r && r.status === 'error' ? { status: 'error', error: r.error } : { status: 'ok' }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}

function Outcome(props: { state: ReturnType<typeof useOnce>; pending: string; ok: ReactNode; after?: ReactNode }) {
  if (props.state.status === 'pending') return <Spinner label={props.pending} />;
  if (props.state.status === 'error')
    return (
      <>
        <FormError error={props.state.error} />
        {props.after}
      </>
    );
  return (
    <>
      {props.ok}
      {props.after}
    </>
  );
}

/** Links after a finished step: the app (or, without one, account settings). */
function HomeLinks() {
  const app = useApp();
  const t = useT();
  const noApp = app.urls.home === app.urls.accountSettings;
  return (
    <p className="gh-row">
      {noApp ? null : <a href={app.urls.home}>{t('common.goHome')}</a>}
      <a href={app.urls.accountSettings}>{t('common.accountSettings')}</a>
    </p>
  );
}

function EmailVerificationPage(props: PageProps & { code?: string }) {
  const app = useApp();
  const t = useT();
  const code = props.code ?? queryParam('code') ?? '';
  const state = useOnce(() => (code ? app.verifyEmail(code) : Promise.reject(new MessageError('verify.missingCode'))));
  return (
    <AuthCard title={t('verify.title')} fullPage={props.fullPage}>
      <Outcome state={state} pending={t('verify.pending')} ok={<Success>{t('verify.done')}</Success>} after={<HomeLinks />} />
    </AuthCard>
  );
}

/** The email-verification page: verifies the link's `code` (`POST /contact-channels/verify`). */
export const EmailVerification = withLocale(EmailVerificationPage);

function MagicLinkCallbackPage(props: PageProps & { code?: string }) {
  const app = useApp();
  const t = useT();
  const code = props.code ?? queryParam('code') ?? '';
  const state = useOnce(() => (code ? app.signInWithMagicLink(code) : Promise.reject(new MessageError('callback.missingCode'))));
  return (
    <AuthCard title={t('callback.title')} fullPage={props.fullPage}>
      <Outcome
        state={state}
        pending={t('callback.pending')}
        ok={<Success>{t('callback.done')}</Success>}
        after={
          state.status === 'error' ? (
            <p>
              <a href={app.urls.signIn}>{t('common.backToSignIn')}</a>
            </p>
          ) : null
        }
      />
    </AuthCard>
  );
}

/** The magic-link callback: signs in with the link's `code` (`POST /auth/otp/sign-in`). */
export const MagicLinkCallback = withLocale(MagicLinkCallbackPage);

function OAuthCallbackPage(props: PageProps) {
  const app = useApp();
  const t = useT();
  const state = useOnce(() => app.callOAuthCallback());
  // The SDK reports a missing code or state as a plain error: say so in the page's words.
  const shown =
    state.status === 'error' && !(state.error as { code?: string }).code
      ? { status: 'error' as const, error: new MessageError('callback.missingCode') }
      : state;
  return (
    <AuthCard title={t('callback.title')} fullPage={props.fullPage}>
      <Outcome
        state={shown}
        pending={t('oauthCallback.pending')}
        ok={<Success>{t('callback.done')}</Success>}
        after={
          state.status === 'error' ? (
            <p>
              <a href={app.urls.signIn}>{t('common.backToSignIn')}</a>
            </p>
          ) : null
        }
      />
    </AuthCard>
  );
}

/** The OAuth callback: exchanges `code` (removing `code` and `state` from the address bar). */
export const OAuthCallback = withLocale(OAuthCallbackPage);

function SignOutPage(props: PageProps) {
  const app = useApp();
  const t = useT();
  const state = useOnce(() => app.signOut());
  return (
    <AuthCard title={t('signOut.title')} fullPage={props.fullPage}>
      <Outcome state={state} pending={t('signOut.pending')} ok={<Success>{t('signOut.done')}</Success>} />
    </AuthCard>
  );
}

/** The sign-out page: signs out and goes to after-sign-out. */
export const SignOut = withLocale(SignOutPage);

function MfaPageInner(props: PageProps & { attemptCode?: string }) {
  const app = useApp();
  const t = useT();
  const [mode, setMode] = useState<'totp' | 'recovery'>('totp');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const switchTo = (next: 'totp' | 'recovery') => {
    setMode(next);
    setValue('');
    setProblem(null);
    setError(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const entered = value.replace(/\s/g, '');
    const bad =
      mode === 'totp'
        ? /^\d{6}$/.test(entered)
          ? null
          : t('validate.totp')
        : /^[0-9a-z-]{16,19}$/i.test(entered)
          ? null
          : t('validate.recoveryCode');
    setProblem(bad);
    if (bad) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r =
        mode === 'totp'
          ? await app.signInWithMfa(entered, props.attemptCode)
          : await app.signInWithRecoveryCode(entered, props.attemptCode);
      if (r.status === 'error') throw r.error;
    });
  };
  return (
    <AuthCard title={t('mfa.title')} fullPage={props.fullPage}>
      <form ref={form} onSubmit={submit} noValidate aria-label={mode === 'totp' ? t('mfa.formLabel') : t('mfa.recoveryFormLabel')}>
        {mode === 'totp' ? (
          <Field
            key="totp"
            label={t('mfa.code')}
            name="totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={value}
            onChange={setValue}
            error={problem}
            autoFocus
          />
        ) : (
          <Field
            key="recovery"
            label={t('mfa.recoveryCode')}
            name="recovery-code"
            autoComplete="off"
            value={value}
            onChange={setValue}
            error={problem}
            autoFocus
          />
        )}
        <FormError error={error} />
        <Submit busy={busy} busyLabel={t('mfa.busy')}>
          {t('mfa.submit')}
        </Submit>
      </form>
      <p>
        {mode === 'totp' ? (
          <button type="button" className="gh-link" onClick={() => switchTo('recovery')}>
            {t('mfa.useRecovery')}
          </button>
        ) : (
          <button type="button" className="gh-link" onClick={() => switchTo('totp')}>
            {t('mfa.useApp')}
          </button>
        )}
      </p>
    </AuthCard>
  );
}

/**
 * The multi-factor page: the 6-digit TOTP code for the pending attempt (`POST /auth/mfa/sign-in`),
 * or, behind "Use a recovery code", a single-use recovery code (Gatehouse extension).
 */
export const MfaPage = withLocale(MfaPageInner);

function CliConfirmBody(props: { loginCode: string }) {
  const app = useApp();
  const user = useUser();
  const t = useT();
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  if (!props.loginCode) return <FormError error={new MessageError('cli.missingCode')} />;
  if (!user) return <p>{t.rich('cli.signInFirst', { link: <a href={app.signInUrlWithReturn()}>{t('cli.signInLink')}</a> })}</p>;
  if (done) return <Success>{t('cli.done')}</Success>;
  return (
    <div>
      <p>{t.rich('cli.asking', { user: <strong>{user.primaryEmail ?? user.displayName ?? user.id}</strong> })}</p>
      <FormError error={error} />
      <div className="gh-row">
        <button
          type="button"
          className="gh-btn gh-primary"
          disabled={busy}
          onClick={() =>
            run(async () => {
              const r = await app.confirmCliLogin(props.loginCode);
              if (r.status === 'error') throw r.error;
              setDone(true);
            })
          }
        >
          {t('cli.authorize')}
        </button>
        <a href={app.urls.home}>{t('cli.cancel')}</a>
      </div>
    </div>
  );
}

function CliAuthConfirmPage(props: PageProps & { loginCode?: string }) {
  const t = useT();
  return (
    <AuthCard title={t('cli.title')} fullPage={props.fullPage}>
      <Loader>
        <CliConfirmBody loginCode={props.loginCode ?? queryParam('login_code') ?? ''} />
      </Loader>
    </AuthCard>
  );
}

/** The CLI confirmation page (query `login_code`): `POST /auth/cli/complete` with this session. */
export const CliAuthConfirm = withLocale(CliAuthConfirmPage);

function ErrorPageInner(props: PageProps & { errorCode?: string }) {
  const app = useApp();
  const t = useT();
  const raw = props.errorCode ?? queryParam('errorCode') ?? queryParam('error_code') ?? '';
  // Only a well-formed code is echoed, and only a known code picks the message: the page never
  // renders text from the address bar (a link could otherwise put any words on a branded page).
  const code = /^[A-Z0-9_]{1,80}$/.test(raw) ? raw : null;
  const message = code && isKnownErrorCode(code) ? t(`error.${code}` as MessageKey) : t('error.unknown');
  return (
    <AuthCard title={t('errorPage.title')} fullPage={props.fullPage}>
      <p role="alert">{message}</p>
      {code ? <p className="gh-muted">{t.rich('errorPage.code', { code: <code>{code}</code> })}</p> : null}
      <p>
        <a href={app.urls.signIn}>{t('common.backToSignIn')}</a>
      </p>
    </AuthCard>
  );
}

/**
 * The error page: a fixed message for the `errorCode` of the query (or props); any other text in
 * the address (`message`, `error_description`) is ignored.
 */
export const ErrorPage = withLocale(ErrorPageInner);

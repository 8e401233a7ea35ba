import { useEffect, useRef, useState, type FormEvent } from 'react';
import { GatehouseKnownError } from '../../sdk/errors.ts';
import { useApp } from '../../sdk/react.tsx';
import {
  AuthCard,
  Field,
  FormError,
  MessageError,
  PASSWORD_RULES,
  Spinner,
  Submit,
  Success,
  emailProblem,
  errorText,
  passwordProblem,
  queryParam,
  useAction,
  useInvalidFocus,
  withLocale,
  type PageProps,
} from '../common.tsx';
import { useT } from '../i18n/index.tsx';
import { MagicLinkRetry } from './sign-in.tsx';

function ForgotPasswordPage(props: PageProps) {
  const app = useApp();
  const t = useT();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = emailProblem(email);
    setProblem(p && t(p));
    if (p) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await app.sendForgotPasswordEmail(email.trim(), { callbackUrl: app.absoluteUrl(app.urls.passwordReset) });
      // An unknown email answers like a known one, so the page does not reveal who has an account.
      if (r.status === 'error' && r.error.code !== 'USER_NOT_FOUND') throw r.error;
      setSent(true);
    });
  };
  return (
    <AuthCard title={t('forgot.title')} fullPage={props.fullPage}>
      {sent ? (
        <>
          <Success>{t('forgot.sent', { email: email.trim() })}</Success>
          <MagicLinkRetry busy={busy} resend={submit} changeEmail={() => setSent(false)} />
          <FormError error={error} />
        </>
      ) : (
        <form ref={form} onSubmit={submit} noValidate aria-label={t('forgot.formLabel')}>
          <Field
            label={t('common.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={problem}
          />
          <FormError error={error} />
          <Submit busy={busy} busyLabel={t('common.sending')}>
            {t('forgot.submit')}
          </Submit>
        </form>
      )}
      <p className="gh-muted">
        <a href={app.urls.signIn}>{t('common.backToSignIn')}</a>
      </p>
    </AuthCard>
  );
}

/** "Forgot password": sends the reset email (`POST /auth/password/send-reset-code`). */
export const ForgotPassword = withLocale(ForgotPasswordPage);

function PasswordResetPage(props: PageProps & { code?: string }) {
  const app = useApp();
  const t = useT();
  const code = props.code ?? queryParam('code') ?? '';
  const [checked, setChecked] = useState<'pending' | 'ok' | unknown>('pending');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!code) {
      setChecked(new MessageError('reset.missingCode'));
      return;
    }
    app.verifyPasswordResetCode(code).then(
      (r) => setChecked(r.status === 'ok' ? 'ok' : r.error),
      (e: unknown) => setChecked(e),
    );
  }, [app, code]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = passwordProblem(password);
    setProblem(p && errorText(p, t));
    if (p) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    await run(async () => {
      const r = await app.resetPassword({ code, password });
      if (r.status === 'error') {
        if (r.error instanceof GatehouseKnownError && r.error.code.startsWith('PASSWORD_TOO_')) {
          setProblem(errorText(r.error, t));
          focusFirstInvalid();
          return;
        }
        throw r.error;
      }
      setDone(true);
    });
  };
  let body;
  if (done)
    body = (
      <>
        <Success>{t('reset.done')}</Success>
        <p>
          <a href={app.urls.signIn}>{t('signIn.link')}</a>
        </p>
      </>
    );
  else if (checked === 'pending') body = <Spinner label={t('reset.checking')} />;
  else if (checked !== 'ok')
    body = (
      <>
        <FormError error={checked} />
        <p>
          <a href={app.urls.forgotPassword}>{t('reset.requestNew')}</a>
        </p>
      </>
    );
  else
    body = (
      <form ref={form} onSubmit={submit} noValidate aria-label={t('reset.formLabel')}>
        <Field
          label={t('reset.newPassword')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          error={problem}
          hint={t('validate.passwordRules', PASSWORD_RULES)}
          autoFocus
        />
        <FormError error={error} />
        <Submit busy={busy} busyLabel={t('common.saving')}>
          {t('reset.submit')}
        </Submit>
      </form>
    );
  return (
    <AuthCard title={t('reset.title')} fullPage={props.fullPage}>
      {body}
    </AuthCard>
  );
}

/** The password-reset page: checks the link's `code`, then sets the new password. */
export const PasswordReset = withLocale(PasswordResetPage);

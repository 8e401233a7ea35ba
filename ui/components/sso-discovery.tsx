import { createContext, useContext, useEffect, useState, type FormEvent } from 'react';
import { useApp } from '../../sdk/react.tsx';
import { Field, FormError, Submit, emailProblem, useAction, useInvalidFocus } from '../common.tsx';
import { useT } from '../i18n/index.tsx';

/**
 * Whether the project has SSO connections as the server knew it when it wrote the page (the hosted
 * pages' inline config, `sso_available` of `GET /auth/sso/discovery`), or null when not given:
 * then {@link useSsoAvailable} asks.
 */
export const SsoAvailableContext = createContext<boolean | null>(null);

/**
 * Whether the project has SSO connections: from {@link SsoAvailableContext} when the page was
 * given it (no request, so the sign-in form renders at once), else asked (`GET
 * /auth/sso/discovery`): null while asking; false when the server cannot answer (a server
 * without SSO).
 */
export function useSsoAvailable(): boolean | null {
  const app = useApp();
  const known = useContext(SsoAvailableContext);
  const [available, setAvailable] = useState<boolean | null>(known);
  useEffect(() => {
    if (known !== null) return;
    let cancelled = false;
    app
      .discoverSso()
      .then((r) => !cancelled && setAvailable(r.ssoAvailable === true))
      .catch(() => !cancelled && setAvailable(false));
    return () => {
      cancelled = true;
    };
  }, [app, known]);
  return known ?? available;
}

/**
 * Home-realm discovery's first step: asks for the address only. An address whose domain belongs
 * to a team with an SSO connection goes straight to that team's identity provider
 * (`app.signInWithSso`, the app's usual OAuth parameters); any other address continues with
 * `onContinue` (the page's usual methods, the address filled in).
 */
export function SsoEmailStep(props: { onContinue: (email: string) => void }) {
  const app = useApp();
  const t = useT();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const { busy, error, setError, run } = useAction();
  const { form, focusFirstInvalid } = useInvalidFocus();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const key = emailProblem(email);
    setProblem(key && t(key));
    if (key) {
      setError(null);
      focusFirstInvalid();
      return;
    }
    const address = email.trim();
    await run(async () => {
      const found = await app.discoverSso(address);
      if (!found.sso) {
        props.onContinue(address);
        return;
      }
      setRedirecting(true);
      await app.signInWithSso({ email: address });
    });
  };
  if (redirecting) return <p role="status">{t('sso.redirecting')}</p>;
  return (
    <form ref={form} onSubmit={submit} noValidate aria-label={t('sso.formLabel')}>
      <Field
        label={t('common.email')}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        error={problem}
        hint={t('sso.hint')}
        autoFocus
      />
      <FormError error={error} />
      <Submit busy={busy} busyLabel={t('sso.busy')}>
        {t('sso.continue')}
      </Submit>
    </form>
  );
}
